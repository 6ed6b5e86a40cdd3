import Fastify, { type FastifyInstance } from 'fastify';
import { zodSchemaController } from './http/zod-compilers.ts';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { registerErrorHandler } from './http/error-handler.ts';
import type { QueueStates } from './jobs/job-queue.ts';
import type { Metrics } from './metrics/metrics.ts';
import { registerMetricsRoute } from './metrics/metrics.routes.ts';
import { healthRoutes } from './modules/health/health.routes.ts';
import type { Readiness } from './startup/readiness.ts';
import { APP_VERSION } from './version.ts';

/**
 * What a worker process (no API) answers on OPS_PORT: the health probes and /metrics, so an
 * orchestrator can tell it is alive and Prometheus can read its job durations.
 */
export async function startOpsServer(deps: {
  config: Pick<Config, 'opsPort' | 'host' | 'role' | 'metricsToken'>;
  database: Database;
  queueState: () => Promise<QueueStates>;
  readiness: Readiness;
  metrics: Metrics;
}): Promise<FastifyInstance> {
  const app = Fastify({ logger: false, schemaController: zodSchemaController });
  registerErrorHandler(app);
  registerMetricsRoute(app, { metrics: deps.metrics, token: deps.config.metricsToken });
  await app.register(healthRoutes, {
    prefix: '/api/v1',
    pool: deps.database.pool,
    queueState: deps.queueState,
    role: deps.config.role,
    version: APP_VERSION,
    readiness: deps.readiness,
  });
  await app.listen({ port: deps.config.opsPort, host: deps.config.host });
  return app;
}
