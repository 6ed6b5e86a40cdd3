import { describe, expect, it } from 'vitest';
import { useTestApp } from '#test/test-app.ts';
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
});
