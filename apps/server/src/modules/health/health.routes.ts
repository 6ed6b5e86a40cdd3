import { HealthSchema } from '@pathology/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
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
      return reply.status(health.status === 'ok' ? 200 : 503).send(health);
    },
  );
};
