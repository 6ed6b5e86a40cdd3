import type { JSONWebKeySet, JWTPayload, JWTVerifyGetKey } from 'jose';

/** jose (46 modules) is loaded with the first token to verify, not at every start. */
let joseModule: Promise<typeof import('jose')> | undefined;
const jose = () => (joseModule ??= import('jose'));

export interface VerifiedToken {
  subject: string;
  email: string | undefined;
  name: string | undefined;
  givenName: string | undefined;
  familyName: string | undefined;
  /** The admin claim that marks a super user. */
  isSuperUser: boolean;
  expiresAt: number;
}

export interface TokenVerifierOptions {
  issuer: string;
  audience: string;
  /** Name of the claim whose truthy value (or membership of 'admin' in an array) marks a super user. */
  adminClaim: string;
  /** The key set itself (the built-in provider's public keys) or a key source; by default the issuer's JWKS, fetched and cached by jose. */
  keys?: JSONWebKeySet | JWTVerifyGetKey;
}

export type TokenVerifier = (token: string) => Promise<VerifiedToken>;

export class InvalidTokenError extends Error {}

/**
 * Verifies a bearer token's signature against the issuer's published keys, and its issuer,
 * audience and expiry, with jose; works with any OpenID provider, the built-in one included.
 */
export function createTokenVerifier(options: TokenVerifierOptions): TokenVerifier {
  const { keys: given } = options;
  let keys: Promise<JWTVerifyGetKey> | undefined;
  const keySource = async (): Promise<JWTVerifyGetKey> => {
    if (typeof given === 'function') return given;
    return given == null ? discoveredKeys(options.issuer) : (await jose()).createLocalJWKSet(given);
  };
  return async (token) => {
    const { errors, jwtVerify } = await jose();
    keys ??= keySource();
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, await keys, { issuer: options.issuer, audience: options.audience }));
    } catch (error) {
      if (error instanceof errors.JOSEError) throw new InvalidTokenError(error.code);
      throw error;
    }
    if (typeof payload.sub !== 'string' || payload.exp == null) throw new InvalidTokenError('missing sub or exp');
    return {
      subject: payload.sub,
      email: stringClaim(payload, 'email'),
      name: stringClaim(payload, 'name'),
      givenName: stringClaim(payload, 'given_name'),
      familyName: stringClaim(payload, 'family_name'),
      isSuperUser: isAdmin(payload[options.adminClaim]),
      expiresAt: payload.exp,
    };
  };
}

/** The issuer's key set, found through its discovery document on first use (Keycloak, Entra ID and oidc-provider differ in the path). */
function discoveredKeys(issuer: string): JWTVerifyGetKey {
  let keySet: Promise<JWTVerifyGetKey> | undefined;
  const load = async (): Promise<JWTVerifyGetKey> => {
    const response = await fetch(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`);
    if (!response.ok) throw new Error(`OpenID discovery failed: HTTP ${response.status}`);
    const { jwks_uri: jwksUri } = (await response.json()) as { jwks_uri?: string };
    if (jwksUri == null) throw new Error('OpenID discovery document has no jwks_uri');
    return (await jose()).createRemoteJWKSet(new URL(jwksUri), { cooldownDuration: 30_000 });
  };
  return async (header, token) => {
    keySet ??= load().catch((error: unknown) => {
      keySet = undefined;
      throw error;
    });
    return (await keySet)(header, token);
  };
}

function stringClaim(payload: JWTPayload, name: string): string | undefined {
  const value = payload[name];
  return typeof value === 'string' ? value : undefined;
}

function isAdmin(claim: unknown): boolean {
  if (Array.isArray(claim)) return claim.includes('admin');
  return claim === true || claim === 'true' || claim === 'admin';
}
