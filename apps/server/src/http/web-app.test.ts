import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerErrorHandler, registerNotFoundHandler } from './error-handler.ts';
import { registerWebApp } from './web-app.ts';

describe('the web app beside the API', () => {
  let dist: string;
  let app: FastifyInstance;

  beforeAll(async () => {
    dist = await fs.mkdtemp(path.join(os.tmpdir(), 'web-dist-'));
    await fs.mkdir(path.join(dist, 'assets'));
    await fs.writeFile(path.join(dist, 'index.html'), '<!doctype html><title>app</title>');
    await fs.writeFile(path.join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
    await fs.writeFile(path.join(dist, 'meta.json'), '{"date":"2026-11-22T00:00:00Z"}');
    app = Fastify();
    registerErrorHandler(app);
    const served = await registerWebApp(app, dist);
    registerNotFoundHandler(app, { spaFallback: served });
  });
  afterAll(async () => {
    await app.close();
    await fs.rm(dist, { recursive: true, force: true });
  });

  it('answers the root with the app', async () => {
    const response = await app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<title>app</title>');
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it('answers a deep link with index.html, never cached', async () => {
    const response = await app.inject({ method: 'GET', url: '/cases/123?from=x' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<title>app</title>');
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it('caches fingerprinted assets for good and revalidates the rest', async () => {
    const asset = await app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const meta = await app.inject({ method: 'GET', url: '/meta.json' });
    expect(meta.headers['cache-control']).toBe('no-cache');
  });

  it('serves files of a rebuild without a restart', async () => {
    await fs.writeFile(path.join(dist, 'assets', 'app-def456.js'), 'console.log(2)');
    const response = await app.inject({ method: 'GET', url: '/assets/app-def456.js' });
    expect(response.body).toBe('console.log(2)');
  });

  it('keeps unknown API paths a JSON 404', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/v1/nothing' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Not found' });
  });
});
