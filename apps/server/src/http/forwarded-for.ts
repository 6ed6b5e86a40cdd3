import { isIP } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * Drops from X-Forwarded-For every entry that is no IP address, before anything reads the client address. Fastify
 * (proxy-addr) takes the entry after the last trusted proxy as the client whatever it holds, so a client beside a
 * trusted proxy (loopback by default) that sent `X-Forwarded-For: a`, `b`, `c`… was a new client to sign-in
 * throttling each time. Without those entries the client is the last address the trusted proxies vouch for.
 */
export function registerForwardedForCleanup(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const headers = request.raw.headers;
    const value = headers['x-forwarded-for'];
    if (value !== undefined) {
      const addresses = String(value)
        .split(',')
        .map((entry) => entry.trim())
        .filter((entry) => isIP(entry) !== 0);
      if (addresses.length === 0) delete headers['x-forwarded-for'];
      else headers['x-forwarded-for'] = addresses.join(', ');
    }
    done();
  });
}
