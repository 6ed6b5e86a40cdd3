import type { AccountResolver } from './authenticate.ts';
import type { Caller } from './caller.ts';
import type { TokenVerifier, VerifiedToken } from './token-verifier.ts';

export interface CallerCache {
  verifyToken: TokenVerifier;
  resolveAccount: AccountResolver;
  /** The caller of a token verified and resolved before and still fresh, without waiting: for the lean tile path. */
  peek(token: string): Caller | undefined;
}

/** Longest a verified token's caller is reused; shorter when the token expires sooner. */
const TTL_MS = 60_000;
const MAX_ENTRIES = 5_000;

/**
 * Remembers who a bearer token is, for routes that a client calls hundreds of times a minute with
 * the same token (tiles). The signature is checked on first sight; the account is read again after
 * TTL_MS, and never past the token's own expiry.
 */
export function cacheCallers(verifyToken: TokenVerifier, resolveAccount: AccountResolver): CallerCache {
  const known = new Map<string, { verified: VerifiedToken; until: number }>();
  const callers = new WeakMap<VerifiedToken, Promise<Caller>>();
  const settled = new WeakMap<VerifiedToken, Caller>();
  return {
    peek(token) {
      const hit = known.get(token);
      return hit != null && hit.until > Date.now() ? settled.get(hit.verified) : undefined;
    },
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
        caller.then(
          (resolved) => settled.set(verified, resolved),
          () => callers.delete(verified),
        );
        callers.set(verified, caller);
      }
      return caller;
    },
  };
}
