import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';
import { HttpError } from '../http/http-error.ts';
import type { Metrics } from './metrics.ts';

/** Route patterns are few; a request that matched none is counted under this one label, not its URL. */
const UNMATCHED_ROUTE = 'unmatched';

/** Times every response of this app into the HTTP latency histogram, labelled by route pattern. */
export function registerRequestTiming(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', async (request, reply) => {
    metrics.httpDuration.observe(
      { method: request.method, route: request.routeOptions.url ?? UNMATCHED_ROUTE, status_code: reply.statusCode },
      reply.elapsedTime / 1000,
    );
  });
}

/**
 * GET /metrics in Prometheus's text format: sign-in outcomes, queue sizes and the Node version are the operator's,
 * not the world's. With a token set, only `Authorization: Bearer <token>` reads it, from anywhere. Without one, only
 * a client on this machine that came straight to the port does (`localOnly`): a connection from loopback that
 * carries X-Forwarded-For, Forwarded or X-Real-IP was passed on by a proxy, for someone else. The worker's ops
 * port, which serves nothing but probes and metrics, answers everyone who reaches it (the token, when set, still
 * needed).
 */
export function registerMetricsRoute(
  app: FastifyInstance,
  options: { metrics: Metrics; token?: string; localOnly?: boolean },
): void {
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (options.token != null) {
      if (!bearerMatches(request.headers.authorization, options.token)) {
        reply.header('WWW-Authenticate', 'Bearer');
        throw HttpError.unauthorized();
      }
    } else if (options.localOnly === true && !cameStraightFromThisMachine(request)) {
      throw HttpError.forbidden();
    }
    const body = await options.metrics.registry.metrics();
    return reply.header('Content-Type', options.metrics.registry.contentType).send(body);
  });
}

function cameStraightFromThisMachine(request: FastifyRequest): boolean {
  const address = request.raw.socket.remoteAddress;
  if (address === undefined || !ipaddr.isValid(address)) return false;
  const forwarded = ['x-forwarded-for', 'forwarded', 'x-real-ip'].some((name) => request.headers[name] !== undefined);
  return !forwarded && ipaddr.process(address).range() === 'loopback';
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header ?? '');
  const expected = Buffer.from(`Bearer ${token}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
