import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { freePort } from '#test/free-port.ts';
import { useTestApp } from '#test/test-app.ts';
import { createDatabase } from '../../db/client.ts';
import { DATABASE_RETRY_AFTER_SECONDS } from '../../db/unavailable.ts';
import { JobQueue } from '../../jobs/job-queue.ts';
import { QUEUE_POLICIES, type QueuePayloads } from '../../jobs/queues.ts';
import { healthRoutes } from './health.routes.ts';
import { checkHealth } from './health.service.ts';
import { createReadiness } from '../../startup/readiness.ts';

describe('GET /api/v1/health', () => {
  const t = useTestApp();

  const signedIn = async () =>
    t.app.inject({ method: 'GET', url: '/api/v1/health', headers: await t.auth('health-reader') });

  it('answers without a token whether the database and the queue are up, and nothing more', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', role: 'all', database: { ok: true }, queue: { ok: true } });
    // A token that is not valid is no token: the same answer, not a 401.
    const forged = { authorization: 'Bearer not-a-token' };
    const withForged = await t.app.inject({ method: 'GET', url: '/api/v1/health', headers: forged });
    expect(withForged.json()).toEqual(response.json());
  });

  it('tells a signed-in caller the version and the queue sizes', async () => {
    const body = (await signedIn()).json();
    expect(body).toMatchObject({ status: 'ok', version: '0.30.0', database: { ok: true }, queue: { ok: true } });
    expect(body.queue.queues['storage-usage']).toEqual({ queued: 0, active: 0, failed: 0 });
  });

  it('counts queued jobs', async () => {
    await t.jobs.send('storage-usage', { organizationId: '00000000-0000-0000-0000-000000000000' });
    const body = (await signedIn()).json();
    expect(body.queue.queues['storage-usage'].queued).toBe(1);
  });

  it('reads the queue through the pool requests use, so it answers as soon as they do', async () => {
    // A job queue whose own connections are not there: as pg-boss's pool can be for a while after a database restart.
    const jobs = new JobQueue<QueuePayloads>({ connectionString: t.database.url, policies: QUEUE_POLICIES });
    const health = await checkHealth({
      pool: t.database.pool,
      queueState: () => jobs.state(t.database.pool),
      role: 'api',
      version: '0.30.0',
    });
    expect(health).toMatchObject({ status: 'ok', queue: { ok: true } });
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
      readiness: readyOne(),
    });
    try {
      const response = await app.inject({ method: 'GET', url: '/health' });
      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBe(String(DATABASE_RETRY_AFTER_SECONDS));
      expect(response.json()).toMatchObject({ status: 'degraded', database: { ok: false } });
      const ready = await app.inject({ method: 'GET', url: '/health/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'degraded' });
      // Alive all the same: a database outage is no reason to restart the process.
      expect((await app.inject({ method: 'GET', url: '/health/live' })).statusCode).toBe(200);
    } finally {
      await app.close();
      await unreachable.close();
    }
  });
});

describe('GET /api/v1/health/live and /health/ready', () => {
  const t = useTestApp();

  it('are answered without a token: alive, and ready once up', async () => {
    const live = await t.app.inject({ method: 'GET', url: '/api/v1/health/live' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject({ method: 'GET', url: '/api/v1/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ok' });
  });

  it('say not ready while starting and while draining, alive throughout', async () => {
    const readiness = createReadiness();
    const app = Fastify().withTypeProvider();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    await app.register(healthRoutes, {
      pool: t.database.pool,
      queueState: () => t.jobs.state(),
      role: 'api',
      version: '0.30.0',
      readiness,
    });
    const ask = async (url: string) => {
      const response = await app.inject({ method: 'GET', url });
      return [response.statusCode, response.json().status];
    };
    try {
      expect(await ask('/health/ready')).toEqual([503, 'starting']);
      readiness.markReady();
      expect(await ask('/health/ready')).toEqual([200, 'ok']);
      readiness.markDraining();
      expect(await ask('/health/ready')).toEqual([503, 'draining']);
      expect(await ask('/health/live')).toEqual([200, 'ok']);
    } finally {
      await app.close();
    }
  });
});

function readyOne() {
  const readiness = createReadiness();
  readiness.markReady();
  return readiness;
}
