import type { FastifyInstance } from 'fastify';
import { HttpError } from '../http/http-error.ts';
import type { Caller } from './caller.ts';
import { InvalidTokenError, type TokenVerifier, type VerifiedToken } from './token-verifier.ts';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller;
  }
  interface FastifyContextConfig {
    /**
     * Routes that answer without a bearer token (health, discovery); `identified` ones also learn the caller when a
     * valid token comes (request.caller, null otherwise), to tell a signed-in user more.
     */
    public?: boolean | 'identified';
  }
}

export type AccountResolver = (token: VerifiedToken) => Promise<Caller>;

/**
 * Every route of the scope needs a valid bearer token unless it is marked `config: { public: true }`:
 * protection is the default, an open route is the exception that has to be declared.
 */
export function registerAuthentication(
  app: FastifyInstance,
  deps: { verifyToken: TokenVerifier; resolveAccount: AccountResolver },
): void {
  app.decorateRequest('caller', null as unknown as Caller);
  app.addHook('onRequest', async (request) => {
    const open = request.routeOptions.config.public;
    if (open === true) return;
    const token = bearerToken(request.headers.authorization);
    if (token == null) {
      if (open === 'identified') return;
      throw HttpError.unauthorized();
    }
    let verified: VerifiedToken;
    try {
      verified = await deps.verifyToken(token);
    } catch (error) {
      if (!(error instanceof InvalidTokenError)) throw error;
      if (open === 'identified') return;
      throw HttpError.unauthorized();
    }
    request.caller = await deps.resolveAccount(verified);
  });
}

/** The token of an `Authorization: Bearer …` header. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = header == null ? null : /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
}
