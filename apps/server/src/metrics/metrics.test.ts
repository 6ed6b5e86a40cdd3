import Fastify from 'fastify';
import client from 'prom-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { factories } from '#test/factories.ts';
import { convertedSlide } from '#test/image-fixtures.ts';
import { useTestApp } from '#test/test-app.ts';
import { slidePath } from '#test/testdata.ts';
import { registerErrorHandler } from '../http/error-handler.ts';
import { createMetrics } from './metrics.ts';
import { registerMetricsRoute } from './metrics.routes.ts';

/** The value of one sample line of Prometheus's text format, or undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line == null ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics', () => {
  const t = useTestApp();
  let layerId: string;

  beforeAll(async () => {
    const make = factories(t.database.db);
    const group = await make.organization();
    const viewer = await make.account({ subject: 'viewer' });
    await make.join(viewer, group, 'read_only');
    const caseId = await make.case({ ownerOrganizationId: group });
    layerId = (await convertedSlide(t, caseId, slidePath('CMU-1-Small-Region.svs'))).layerId;
  }, 60_000);

  const scrape = async () => {
    const response = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return response.body;
  };

  it('answers without a token only a client on this machine that came straight to the port', async () => {
    const from = (remoteAddress: string, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'GET', url: '/metrics', remoteAddress, headers });
    expect((await from('203.0.113.7')).statusCode).toBe(403);
    expect((await from('::ffff:192.0.2.1')).statusCode).toBe(403);
    // A proxy on this machine passing a request on from elsewhere.
    expect((await from('127.0.0.1', { 'x-forwarded-for': '203.0.113.7' })).statusCode).toBe(403);
    expect((await from('127.0.0.1', { forwarded: 'for=203.0.113.7' })).statusCode).toBe(403);
    expect((await from('127.0.0.1', { 'x-real-ip': '203.0.113.7' })).statusCode).toBe(403);
    expect((await from('127.0.0.1')).statusCode).toBe(200);
    expect((await from('::1')).statusCode).toBe(200);
  });

  it('times requests per route pattern, not per URL', async () => {
    await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    await t.app.inject({ method: 'GET', url: `/iiif/2/${layerId}/info.json`, headers: await t.auth('viewer') });
    const text = await scrape();
    expect(
      sample(text, 'http_request_duration_seconds_count{method="GET",route="/api/v1/health",status_code="200"}'),
    ).toBe(1);
    expect(text).toContain('route="/iiif/2/:id/info.json"');
    expect(text).not.toContain(layerId);
  });

  it('counts tile cache hits and misses', async () => {
    const url = `/iiif/2/${layerId}/512,512,512,512/512,/0/default.jpg`;
    for (let i = 0; i < 3; i++) {
      expect((await t.app.inject({ method: 'GET', url, headers: await t.auth('viewer') })).statusCode).toBe(200);
    }
    const text = await scrape();
    expect(sample(text, 'tile_cache_lookups_total{result="miss"}')).toBe(1);
    expect(sample(text, 'tile_cache_lookups_total{result="hit"}')).toBe(2);
  });

  it('reports what the tile caches hold against their bounds', async () => {
    const url = `/iiif/2/${layerId}/0,0,512,512/512,/0/default.jpg`;
    const tile = await t.app.inject({ method: 'GET', url, headers: await t.auth('viewer') });
    expect(tile.statusCode).toBe(200);
    const text = await scrape();
    expect(sample(text, 'memory_cache_bytes{cache="tiles",state="held"}')).toBeGreaterThanOrEqual(
      tile.rawPayload.length,
    );
    // useTestApp's tile cache bound: 64 MiB, and a quarter of it for drawn detection tiles.
    expect(sample(text, 'memory_cache_bytes{cache="tiles",state="limit"}')).toBe(64 * 1024 * 1024);
    expect(sample(text, 'memory_cache_bytes{cache="detection_tiles",state="limit"}')).toBe(16 * 1024 * 1024);
  });

  it('reports queue depths and the database pool', async () => {
    await t.jobs.send('storage-usage', { organizationId: '00000000-0000-0000-0000-000000000000' });
    const text = await scrape();
    expect(sample(text, 'job_queue_jobs{queue="storage-usage",state="queued"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'db_pool_connections{pool="app",state="total"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'db_pool_connections{pool="app",state="waiting"}')).toBe(0);
  });

  it('records job durations per queue and outcome', async () => {
    const metrics = createMetrics();
    metrics.jobDuration.observe({ queue: 'convert', outcome: 'completed' }, 42);
    const text = await metrics.registry.metrics();
    expect(sample(text, 'job_duration_seconds_count{queue="convert",outcome="completed"}')).toBe(1);
    expect(sample(text, 'job_duration_seconds_sum{queue="convert",outcome="completed"}')).toBe(42);
  });

  it("gives prom-client's default metrics, their names, kinds and help in its order, and counts the CPU", async () => {
    const defaults = new client.Registry();
    client.collectDefaultMetrics({ register: defaults });
    const described = async (registry: client.Registry) =>
      (await registry.getMetricsAsJSON()).map((metric) => `${metric.name} (${metric.type}): ${metric.help}`);
    const metrics = createMetrics();
    const expected = await described(defaults);
    expect((await described(metrics.registry)).slice(0, expected.length)).toEqual(expected);

    const cpuSeconds = async () => sample(await metrics.registry.metrics(), 'process_cpu_seconds_total')!;
    const before = await cpuSeconds();
    const busyUntil = performance.now() + 100;
    while (performance.now() < busyUntil) Math.sqrt(Math.random());
    // 100 ms of this process's CPU at least (wall time counts only as much as the process ran).
    expect((await cpuSeconds()) - before).toBeGreaterThan(0.05);
  });

  it('asks for the bearer token when METRICS_TOKEN is set', async () => {
    const app = Fastify();
    registerErrorHandler(app);
    registerMetricsRoute(app, { metrics: createMetrics(), token: 'a-long-enough-secret' });
    try {
      expect((await app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
      const wrong = { authorization: 'Bearer a-long-enough-secreT' };
      expect((await app.inject({ method: 'GET', url: '/metrics', headers: wrong })).statusCode).toBe(401);
      const right = { authorization: 'Bearer a-long-enough-secret' };
      const response = await app.inject({ method: 'GET', url: '/metrics', headers: right });
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('process_cpu_seconds_total');
    } finally {
      await app.close();
    }
  });
});

describe('GET /metrics with METRICS_TOKEN set', () => {
  const token = 'a-long-enough-secret-for-tests';
  const t = useTestApp({ metricsToken: token });

  it('answers the token from anywhere, and nobody without it, not even this machine', async () => {
    const from = (remoteAddress: string, authorization?: string) =>
      t.app.inject({ method: 'GET', url: '/metrics', remoteAddress, headers: authorization ? { authorization } : {} });
    expect((await from('203.0.113.7', `Bearer ${token}`)).statusCode).toBe(200);
    expect((await from('203.0.113.7')).statusCode).toBe(401);
    expect((await from('127.0.0.1')).statusCode).toBe(401);
  });
});
