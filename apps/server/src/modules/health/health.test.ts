import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { freePort } from '#test/free-port.ts';
import { useTestApp } from '#test/test-app.ts';
import { createDatabase } from '../../db/client.ts';
import { DATABASE_RETRY_AFTER_SECONDS } from '../../db/unavailable.ts';
import { healthRoutes } from './health.routes.ts';
import { checkHealth } from './health.service.ts';

describe('GET /api/v1/health', () => {
  const t = useTestApp();

  it('answers without a token with the database and the queue up', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ status: 'ok', version: '0.30.0', database: { ok: true }, queue: { ok: true } });
    expect(body.queue.queues['storage-usage']).toEqual({ queued: 0, active: 0, failed: 0 });
  });

  it('counts queued jobs', async () => {
    await t.jobs.send('storage-usage', { organizationId: '00000000-0000-0000-0000-000000000000' });
    const body = (await t.app.inject({ method: 'GET', url: '/api/v1/health' })).json();
    expect(body.queue.queues['storage-usage'].queued).toBe(1);
  });

  it('reports a database that does not answer as degraded, naming the error', async () => {
    const health = await checkHealth({
      pool: { query: () => Promise.reject(new Error('connection refused')) } as never,
      queueState: () => Promise.resolve({}),
      role: 'api',
      version: '0.30.0',
    });
    expect(health).toMatchObject({ status: 'degraded', database: { ok: false, error: 'connection refused' } });
  });

  it('answers 503 with Retry-After while the database cannot be reached', async () => {
    // A pool aimed at a port nobody listens on: the database of a server whose PostgreSQL restarts.
    const unreachable = createDatabase(`postgres://nobody@127.0.0.1:${await freePort()}/none`);
    const app = Fastify().withTypeProvider();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    await app.register(healthRoutes, {
      pool: unreachable.pool,
      queueState: () => t.jobs.state(),
      role: 'api',
      version: '0.30.0',
    });
    try {
      const response = await app.inject({ method: 'GET', url: '/health' });
      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBe(String(DATABASE_RETRY_AFTER_SECONDS));
      expect(response.json()).toMatchObject({ status: 'degraded', database: { ok: false } });
    } finally {
      await app.close();
      await unreachable.close();
    }
  });
});
