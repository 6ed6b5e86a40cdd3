import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
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
 * GET /metrics in Prometheus's text format. With a token set, only `Authorization: Bearer <token>`
 * reads it; without, anyone who reaches the port does (keep it off the public ingress then).
 */
export function registerMetricsRoute(app: FastifyInstance, options: { metrics: Metrics; token?: string }): void {
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (options.token != null && !bearerMatches(request.headers.authorization, options.token)) {
      reply.header('WWW-Authenticate', 'Bearer');
      throw HttpError.unauthorized();
    }
    const body = await options.metrics.registry.metrics();
    return reply.header('Content-Type', options.metrics.registry.contentType).send(body);
  });
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header ?? '');
  const expected = Buffer.from(`Bearer ${token}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
