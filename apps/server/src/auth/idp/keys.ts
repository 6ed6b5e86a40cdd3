import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { appMeta } from '../../db/schema/index.ts';

export const IDP_KEYS_META_KEY = 'oidc_keys';

const StoredKeysSchema = z.object({
  /** Private signing keys (RS256 JWKs), newest first. */
  signingKeys: z.array(z.record(z.string(), z.string()).and(z.object({ kty: z.string(), kid: z.string() }))).min(1),
  /** Secrets that sign the provider's cookies, newest first. */
  cookieKeys: z.array(z.string().min(32)).min(1),
});

export type IdpKeys = z.infer<typeof StoredKeysSchema>;

/** The public half of the signing keys, as published at the provider's jwks_uri. */
export function publicJwks(keys: IdpKeys): { keys: Record<string, string>[] } {
  const privateMembers = new Set(['d', 'p', 'q', 'dp', 'dq', 'qi']);
  return {
    keys: keys.signingKeys.map((jwk) =>
      Object.fromEntries(Object.entries(jwk).filter(([k]) => !privateMembers.has(k))),
    ),
  };
}

async function generateKeys(): Promise<IdpKeys> {
  // Once per installation: jose stays unloaded on the starts that find the keys.
  const { calculateJwkThumbprint, exportJWK, generateKeyPair } = await import('jose');
  // RS256 because it is what every OpenID client and jose verify without configuration.
  const { privateKey } = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true });
  const jwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint(jwk);
  const signingKey = Object.fromEntries(
    Object.entries({ ...jwk, kid, alg: 'RS256', use: 'sig' }).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );
  return StoredKeysSchema.parse({ signingKeys: [signingKey], cookieKeys: [randomBytes(32).toString('base64url')] });
}

/**
 * The provider's signing keys and cookie secrets: created once per installation and kept in
 * app_meta, so tokens and cookies from one api instance are valid on every other one and survive
 * restarts. Instances starting together may each generate keys; the first insert wins and all
 * read it back.
 */
export async function loadOrCreateIdpKeys(db: Db): Promise<IdpKeys> {
  const [stored] = await db.select({ value: appMeta.value }).from(appMeta).where(eq(appMeta.key, IDP_KEYS_META_KEY));
  if (stored != null) return StoredKeysSchema.parse(stored.value);
  const generated = await generateKeys();
  await db
    .insert(appMeta)
    .values({ key: IDP_KEYS_META_KEY, value: generated })
    .onConflictDoNothing({ target: appMeta.key });
  const [winner] = await db.select({ value: appMeta.value }).from(appMeta).where(eq(appMeta.key, IDP_KEYS_META_KEY));
  return StoredKeysSchema.parse(winner?.value);
}
