import Fastify from 'fastify';
import { MESSAGES } from '@pathology/contract';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/test-app.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { HTTP_PROCESS_ENV } from '../http-processes.ts';
import { createMetrics } from '../metrics/metrics.ts';
import { parseChaos, registerChaos } from './chaos.ts';

describe('CHAOS setting', () => {
  it('reads a delay range, an error share and routes', () => {
    expect(parseChaos('delay:200-700,errors:0.05,routes:/api/v1/cases*')).toEqual({
      delayMs: [200, 700],
      errorRate: 0.05,
      routes: ['/api/v1/cases*'],
    });
    expect(parseChaos('errors:0.5')).toEqual({ delayMs: [0, 0], errorRate: 0.5, routes: ['/api/*'] });
    expect(parseChaos('delay:300,routes:/api/v1/cases*;/iiif/*').routes).toEqual(['/api/v1/cases*', '/iiif/*']);
  });

  it('refuses what it cannot read or what would change nothing', () => {
    for (const bad of ['delay:700-200', 'errors:2', 'errors:lots', 'routes:cases', 'speed:fast', 'delay:0', '']) {
      expect(() => parseChaos(bad), bad).toThrow();
    }
  });

  it('is refused at start unless the server runs on the embedded database with its demo data', () => {
    const chaos = 'delay:200-700,errors:0.05';
    expect(loadConfig({ CHAOS: chaos }, []).chaos).toMatchObject({ delayMs: [200, 700] });
    expect(() => loadConfig({ CHAOS: chaos, DATABASE_URL: 'postgres://db/prod' }, [])).toThrow(ConfigError);
    expect(() => loadConfig({ CHAOS: chaos, SEED_DEMO: 'false' }, [])).toThrow(/embedded database with its demo data/);
    expect(() => loadConfig({ CHAOS: 'delay:fast' }, [])).toThrow(/Invalid setting CHAOS/);
    // A forked HTTP process is handed the embedded database's URL and SEED_DEMO by the primary, which checked already.
    const forked = {
      CHAOS: chaos,
      DATABASE_URL: 'postgres://127.0.0.1:54329/x',
      SEED_DEMO: 'true',
      [HTTP_PROCESS_ENV]: '1',
    };
    expect(loadConfig(forked, []).chaos).toBeDefined();
    expect(loadConfig({}, []).chaos).toBeUndefined();
  });

  it('fails the share of requests its random numbers pick, and only those, and counts them per route', async () => {
    const app = Fastify();
    const { chaosFailures } = createMetrics();
    const draws = [0.9, 0.01];
    registerChaos(
      app,
      { delayMs: [0, 0], errorRate: 0.05, routes: ['/api/v1/cases*'] },
      { failures: chaosFailures, random: () => draws.shift() ?? 1 },
    );
    app.get('/api/v1/cases', async () => ({ ok: true }));
    app.get('/api/v1/cases/:caseId', async () => ({ ok: true }));
    const first = await app.inject('/api/v1/cases');
    const second = await app.inject('/api/v1/cases');
    expect([first.statusCode, second.statusCode]).toEqual([200, 503]);
    expect(second.json()).toEqual({ message: MESSAGES.serviceUnavailable });
    expect(second.headers['retry-after']).toBe('1');
    const unchosen = await app.inject('/api/v1/other');
    expect(unchosen.statusCode).toBe(404);
    draws.push(0.01);
    expect((await app.inject('/api/v1/cases/c-1')).statusCode).toBe(503);
    const counted = (await chaosFailures.get()).values.map(({ labels, value }) => [labels.route, value]);
    expect(counted).toEqual([
      ['/api/v1/cases', 1],
      ['/api/v1/cases/:caseId', 1],
    ]);
    await app.close();
  });
});

describe('CHAOS on the real app', () => {
  const t = useTestApp({ chaos: { delayMs: [300, 300], errorRate: 1, routes: ['/api/v1/cases*'] } });

  it('delays and fails the chosen routes with the 503 the web app handles', async () => {
    const auth = await t.auth('chaos-user');
    const started = Date.now();
    const response = await t.app.inject({ url: '/api/v1/cases/search', method: 'POST', headers: auth, payload: {} });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ message: MESSAGES.serviceUnavailable });
    const metrics = await t.app.inject('/metrics');
    expect(metrics.body).toMatch(/^chaos_failures_total\{route="\/api\/v1\/cases\/search"\} [1-9]\d*$/m);
  });

  it('leaves other routes alone and tells the web app it is on', async () => {
    const started = Date.now();
    const config = await t.app.inject('/api/v1/auth/config');
    expect(Date.now() - started).toBeLessThan(290);
    expect(config.statusCode).toBe(200);
    expect(config.json().chaos).toEqual({ delayMs: [300, 300], errorRate: 1, routes: ['/api/v1/cases*'] });
    const me = await t.app.inject({ url: '/api/v1/accounts/me', headers: await t.auth('chaos-user') });
    expect(me.statusCode).toBe(200);
  });
});
