import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT, type JWTVerifyGetKey } from 'jose';

export const TEST_ISSUER = 'http://issuer.test/oidc';
export const TEST_AUDIENCE = 'pathology-web';
export const TEST_ADMIN_CLAIM = 'pathology_admin';

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;

/**
 * A signing key of a test identity provider and its published key set: tokens are signed and
 * verified with real cryptography, the way the built-in or an external provider does it.
 */
export class TestIssuer {
  private constructor(
    private readonly keyPair: KeyPair,
    readonly keys: JWTVerifyGetKey,
  ) {}

  static async create(): Promise<TestIssuer> {
    const keyPair = await generateKeyPair('RS256');
    const jwk = { ...(await exportJWK(keyPair.publicKey)), kid: 'test', alg: 'RS256', use: 'sig' };
    return new TestIssuer(keyPair, createLocalJWKSet({ keys: [jwk] }));
  }

  sign(claims: {
    sub: string;
    email?: string;
    superUser?: boolean;
    expiresIn?: string;
    issuer?: string;
    audience?: string;
  }): Promise<string> {
    return new SignJWT({
      email: claims.email ?? `${claims.sub}@example.test`,
      ...(claims.superUser ? { [TEST_ADMIN_CLAIM]: true } : {}),
    })
      .setProtectedHeader({ alg: 'RS256', kid: 'test' })
      .setSubject(claims.sub)
      .setIssuer(claims.issuer ?? TEST_ISSUER)
      .setAudience(claims.audience ?? TEST_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(claims.expiresIn ?? '5m')
      .sign(this.keyPair.privateKey);
  }
}
