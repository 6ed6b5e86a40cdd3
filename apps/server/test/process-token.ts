import { importJWK, SignJWT } from 'jose';
import pg from 'pg';

/**
 * A bearer token for a server process running the built-in provider, signed with the provider's own
 * key from its database (as a sign-in would get), for the account with this e-mail.
 */
export async function tokenForProcess(databaseUrl: string, publicUrl: string, email: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    type StoredKeys = { signingKeys: (Record<string, string> & { kid: string })[] };
    const keys = await client.query<{ value: StoredKeys }>(`SELECT value FROM app_meta WHERE key = 'oidc_keys'`);
    const account = await client.query<{ id: string }>(`SELECT id FROM accounts WHERE email = $1`, [email]);
    const [jwk] = keys.rows[0]!.value.signingKeys;
    return await new SignJWT({ email })
      .setProtectedHeader({ alg: 'RS256', kid: jwk!.kid })
      .setSubject(account.rows[0]!.id)
      .setIssuer(`${publicUrl}/oidc`)
      .setAudience(`${publicUrl}/api`)
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(await importJWK(jwk!, 'RS256'));
  } finally {
    await client.end();
  }
}
