import http from 'node:http';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { drainHttp } from './drain.ts';

/** A GET that resolves with its status, or with the error code when the connection fails. */
function get(port: number, path: string): Promise<number | string> {
  return new Promise((resolve) => {
    const request = http.get({ host: '127.0.0.1', port, path, agent: false }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
      response.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    });
    request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
  });
}

async function listening(routes: (app: ReturnType<typeof Fastify>) => void) {
  const app = Fastify();
  routes(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  return { app, port: typeof address === 'object' && address != null ? address.port : 0 };
}

describe('drainHttp (SIGTERM)', () => {
  it('refuses new connections and lets a request in flight finish', async () => {
    const { app, port } = await listening((app) =>
      app.get('/slow', async () => {
        await new Promise((resolve) => setTimeout(resolve, 400));
        return { done: true };
      }),
    );
    const inFlight = get(port, '/slow');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const drained = drainHttp(app, 5_000);
    expect(await get(port, '/slow')).toBe('ECONNREFUSED');
    expect(await inFlight).toBe(200);
    await drained;
  });

  it('cuts a request still running when the grace period ends', async () => {
    const { app, port } = await listening((app) => app.get('/stuck', () => new Promise(() => undefined)));
    const stuck = get(port, '/stuck');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    const drained = drainHttp(app, 300);
    expect(await stuck).toBe('ECONNRESET');
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(Date.now() - started).toBeLessThan(3_000);
    await drained;
  });
});
