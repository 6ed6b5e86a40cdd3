import type { AccountResolver } from './authenticate.ts';
import type { Caller } from './caller.ts';
import type { TokenVerifier, VerifiedToken } from './token-verifier.ts';

/** Longest a verified token's caller is reused; shorter when the token expires sooner. */
const TTL_MS = 60_000;
const MAX_ENTRIES = 5_000;

/**
 * Remembers who a bearer token is, for routes that a client calls hundreds of times a minute with
 * the same token (tiles). The signature is checked on first sight; the account is read again after
 * TTL_MS, and never past the token's own expiry.
 */
export function cacheCallers(
  verifyToken: TokenVerifier,
  resolveAccount: AccountResolver,
): { verifyToken: TokenVerifier; resolveAccount: AccountResolver } {
  const known = new Map<string, { verified: VerifiedToken; until: number }>();
  const callers = new WeakMap<VerifiedToken, Promise<Caller>>();
  return {
    async verifyToken(token) {
      const now = Date.now();
      const hit = known.get(token);
      if (hit != null && hit.until > now) return hit.verified;
      const verified = await verifyToken(token);
      if (known.size >= MAX_ENTRIES) known.clear();
      known.set(token, { verified, until: Math.min(now + TTL_MS, verified.expiresAt * 1000) });
      return verified;
    },
    resolveAccount(verified) {
      let caller = callers.get(verified);
      if (caller == null) {
        caller = resolveAccount(verified);
        caller.catch(() => callers.delete(verified));
        callers.set(verified, caller);
      }
      return caller;
    },
  };
}
