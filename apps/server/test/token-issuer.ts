import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';

export interface TokenIssuer {
  /** OIDC_ISSUER for the server under test. */
  issuer: string;
  /** A bearer token for `sub`, valid for two hours, for the audience `audience`. */
  token(sub: string, audience: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * The smallest OpenID provider a server process accepts as external (OIDC_ISSUER): a discovery
 * document and a key set on loopback, and tokens signed with its key. No sign-in flow.
 */
export async function startTokenIssuer(): Promise<TokenIssuer> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'bench', alg: 'RS256', use: 'sig' };
  let issuer = '';
  const server = http.createServer((request, response) => {
    const body =
      request.url === '/.well-known/openid-configuration'
        ? { issuer, jwks_uri: `${issuer}/jwks` }
        : request.url === '/jwks'
          ? { keys: [jwk] }
          : null;
    response.writeHead(body == null ? 404 : 200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body ?? {}));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    token: (sub, audience) =>
      new SignJWT({ email: `${sub}@bench.test` })
        .setProtectedHeader({ alg: 'RS256', kid: 'bench' })
        .setSubject(sub)
        .setIssuer(issuer)
        .setAudience(audience)
        .setIssuedAt()
        .setExpirationTime('2h')
        .sign(privateKey),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
