import http from 'node:http';
import net from 'node:net';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import Fastify, { type FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { drainHttp, registerDrainAnswers } from './drain.ts';

/** A GET that resolves with its status, or with the error code when the connection fails. */
function get(port: number, path: string): Promise<number | string> {
  return new Promise((resolve) => {
    const request = http.get({ host: '127.0.0.1', port, path, agent: false }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
      response.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
      response.on('aborted', () => resolve('aborted'));
    });
    request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
  });
}

async function listening(routes: (app: FastifyInstance) => void) {
  // As buildApp makes it.
  const app = Fastify({ return503OnClosing: false });
  registerDrainAnswers(app);
  // The drain must begin with the first request in the server's hands, not after a guessed delay: on a loaded
  // machine a request may take longer than any fixed wait to arrive.
  let arrive: () => void = () => {};
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  app.addHook('onRequest', (_request, _reply, done) => {
    arrive();
    done();
  });
  routes(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  return { app, arrived, port: typeof address === 'object' && address != null ? address.port : 0 };
}

const slow = (app: FastifyInstance) =>
  app.get('/slow', async () => {
    await new Promise((resolve) => setTimeout(resolve, 400));
    return { done: true };
  });

describe('drainHttp (SIGTERM)', () => {
  it('refuses new connections and lets a request in flight finish', async () => {
    const { app, arrived, port } = await listening(slow);
    const inFlight = get(port, '/slow');
    await arrived;
    const drained = drainHttp(app, 5_000);
    expect(await get(port, '/slow')).toBe('ECONNREFUSED');
    expect(await inFlight).toBe(200);
    await drained;
  });

  it('answers a request arriving on a kept-alive connection meanwhile with 503 and Retry-After', async () => {
    const { app, arrived, port } = await listening(slow);
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
    const closed = new Promise((resolve) => socket.on('close', resolve));
    // The second request (a tus PATCH resuming an upload) is read once the first is answered, during the drain.
    socket.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n');
    await arrived;
    const drained = drainHttp(app, 5_000);
    socket.write('PATCH /api/v1/uploads/images/x HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n');
    await closed;
    await drained;
    const [first, second] = received.split(/(?=HTTP\/1\.1 )/);
    expect(first).toMatch(/^HTTP\/1\.1 200 /);
    expect(second).toMatch(/^HTTP\/1\.1 503 /);
    expect(second).toMatch(/\r\nretry-after: 5\r\n/i);
  });

  it('answers an upload whose body still arrives when the grace period ends with 503 and Retry-After, then closes', async () => {
    const { app, arrived, port } = await listening((app) => {
      app.addContentTypeParser('*', (_request, _payload, done) => done(null));
      app.post('/upload', async (request) => {
        await pipeline(request.raw, new Writable({ write: (_chunk, _encoding, callback) => callback() }));
        return { stored: true };
      });
    });
    const answer = new Promise<http.IncomingMessage | string>((resolve) => {
      const request = http.request({
        host: '127.0.0.1',
        port,
        path: '/upload',
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/octet-stream', 'content-length': String(100 * 1024 * 1024) },
      });
      request.on('response', resolve);
      request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
      // Half a megabyte, then nothing: a client on a slow line.
      request.write(Buffer.alloc(512 * 1024));
    });
    await arrived;
    const started = Date.now();
    const drained = drainHttp(app, 300);
    const response = await answer;
    expect(typeof response === 'string' ? response : response.statusCode).toBe(503);
    expect((response as http.IncomingMessage).headers['retry-after']).toBe('5');
    await drained;
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('cuts a download already under way when the grace period ends', async () => {
    const { app, arrived, port } = await listening((app) =>
      app.get('/stuck', (_request, reply) => {
        reply.raw.writeHead(200, { 'content-length': '1000' });
        reply.raw.write('partial');
        return reply.hijack();
      }),
    );
    const stuck = get(port, '/stuck');
    await arrived;
    const started = Date.now();
    const drained = drainHttp(app, 300);
    expect(await stuck).toMatch(/^(aborted|ECONNRESET)$/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(Date.now() - started).toBeLessThan(3_000);
    await drained;
  });
});
