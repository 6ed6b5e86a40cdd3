import { HealthSchema, ProbeSchema } from '@pathology/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DATABASE_RETRY_AFTER_SECONDS } from '../../db/unavailable.ts';
import type { Readiness } from '../../startup/readiness.ts';
import { anonymousHealth, checkHealth, type HealthDeps } from './health.service.ts';

export interface HealthRouteDeps extends HealthDeps {
  readiness: Readiness;
}

export const healthRoutes: FastifyPluginAsyncZod<HealthRouteDeps> = async (app, deps) => {
  app.get(
    '/health',
    {
      config: { public: 'identified' },
      schema: {
        operationId: 'getHealth',
        tags: ['health'],
        summary:
          'Database and job-queue state; 503 when either does not answer. The version, queue sizes and error texts only to a signed-in caller',
        security: [],
        response: { 200: HealthSchema, 503: HealthSchema },
      },
    },
    async (request, reply) => {
      const full = await checkHealth(deps);
      // Anyone who reaches the port may ask; what the server runs and how busy it is stays with its users.
      const health = request.caller == null ? anonymousHealth(full) : full;
      if (health.status === 'ok') return reply.send(health);
      // A database or queue that does not answer is restarting or coming up: as on every other 503, say when to ask again.
      return reply.status(503).header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS)).send(health);
    },
  );

  // Liveness asks nothing of the database: an outage there must not get every process restarted.
  app.get(
    '/health/live',
    {
      config: { public: true },
      schema: {
        operationId: 'getLiveness',
        tags: ['health'],
        summary: 'The process answers (liveness probe)',
        security: [],
        response: { 200: ProbeSchema },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/health/ready',
    {
      config: { public: true },
      schema: {
        operationId: 'getReadiness',
        tags: ['health'],
        summary: 'Ready for traffic (readiness probe): up, not draining, database and queue answering; 503 otherwise',
        security: [],
        response: { 200: ProbeSchema, 503: ProbeSchema },
      },
    },
    async (_request, reply) => {
      const state = deps.readiness.state;
      if (state !== 'ready') return reply.status(503).send({ status: state });
      const health = await checkHealth(deps);
      if (health.status === 'ok') return reply.send({ status: 'ok' });
      return reply.status(503).header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS)).send({ status: 'degraded' });
    },
  );
};
