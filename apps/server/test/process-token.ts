import { importJWK, SignJWT } from 'jose';
import { queryOnce } from './sql.ts';

type StoredKeys = { signingKeys: (Record<string, string> & { kid: string })[] };

/**
 * A bearer token for a server process running the built-in provider, signed with the provider's own
 * key from its database (as a sign-in would get), for the account with this e-mail.
 */
export async function tokenForProcess(databaseUrl: string, publicUrl: string, email: string): Promise<string> {
  const [keys] = await queryOnce<{ value: StoredKeys }>(
    databaseUrl,
    `SELECT value FROM app_meta WHERE key = 'oidc_keys'`,
  );
  const [account] = await queryOnce<{ id: string }>(databaseUrl, `SELECT id FROM accounts WHERE email = $1`, [email]);
  const [jwk] = keys!.value.signingKeys;
  return new SignJWT({ email })
    .setProtectedHeader({ alg: 'RS256', kid: jwk!.kid })
    .setSubject(account!.id)
    .setIssuer(`${publicUrl}/oidc`)
    .setAudience(`${publicUrl}/api`)
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(await importJWK(jwk!, 'RS256'));
}
