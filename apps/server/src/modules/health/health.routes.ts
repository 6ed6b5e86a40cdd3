import { HealthSchema } from '@pathology/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { DATABASE_RETRY_AFTER_SECONDS } from '../../db/unavailable.ts';
import { checkHealth, type HealthDeps } from './health.service.ts';

export const healthRoutes: FastifyPluginAsyncZod<HealthDeps> = async (app, deps) => {
  app.get(
    '/health',
    {
      config: { public: true },
      schema: {
        operationId: 'getHealth',
        tags: ['health'],
        summary: 'Database and job-queue state; 503 when either does not answer',
        security: [],
        response: { 200: HealthSchema, 503: HealthSchema },
      },
    },
    async (_request, reply) => {
      const health = await checkHealth(deps);
      if (health.status === 'ok') return reply.send(health);
      // A database or queue that does not answer is restarting or coming up: as on every other 503, say when to ask again.
      return reply.status(503).header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS)).send(health);
    },
  );
};
