import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { startEmbeddedPostgres } from '../src/db/embedded.ts';
import { JobQueue } from '../src/jobs/job-queue.ts';
import { QUEUE_POLICIES, type QueuePayloads } from '../src/jobs/queues.ts';
import { freePort } from './free-port.ts';
import { startServerProcess, waitForHealthy, type ServerProcess } from './server-process.ts';
import { queryOnce } from './sql.ts';

async function count(url: string, table: string): Promise<number> {
  const [row] = await queryOnce<{ n: number }>(url, `SELECT count(*)::int AS n FROM ${table}`);
  return row!.n;
}

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function tempDir(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'pathology-process-'));
  await fs.chmod(dir, 0o755);
  cleanups.push(() => fs.rm(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * A `--require` preload that answers SIGUSR2 with whether Koa is loaded: oidc-provider (ESM, out of require.cache's
 * sight) loads it, and nothing else of ours does.
 */
async function koaProbe(): Promise<string> {
  const file = path.join(await tempDir(), 'koa-probe.cjs');
  await fs.writeFile(
    file,
    `process.on('SIGUSR2', () => console.log('koa loaded: ' + Object.keys(require.cache).some((f) => /node_modules[\\\\/]koa[\\\\/]/.test(f))));`,
  );
  return file;
}

async function koaLoaded(server: ServerProcess): Promise<boolean> {
  const from = server.output().length;
  server.child.kill('SIGUSR2');
  return vi.waitFor(
    () => {
      const answer = /koa loaded: (true|false)/.exec(server.output().slice(from));
      if (answer == null) throw new Error('no answer to SIGUSR2 yet');
      return answer[1] === 'true';
    },
    { timeout: 10_000, interval: 50 },
  );
}

describe('the start command', () => {
  it('starts on the embedded database with demo data whose slide converts once, and a restart keeps the data without seeding twice', async () => {
    const dataDir = await tempDir();
    const port = await freePort();
    const env = { DATA_DIR: dataDir, PORT: String(port), EMBEDDED_PG_PORT: String(await freePort()) };
    const databaseUrl = `postgres://postgres:postgres@127.0.0.1:${env.EMBEDDED_PG_PORT}/pathology`;

    const first = startServerProcess(env);
    cleanups.push(() => first.stop());
    const health = await waitForHealthy(`http://localhost:${port}`, first);
    expect(health).toMatchObject({ status: 'ok', role: 'all', database: { ok: true }, queue: { ok: true } });
    expect(first.output()).toContain(`Pathology slides is running: http://localhost:${port}`);
    expect(first.output()).toContain('super@demo.test');
    // Nothing warns about the supported runtime: no library's runtime check, no Node process warning.
    expect(first.output()).not.toMatch(/Unsupported runtime|\(node:\d+\) \w*Warning/);
    const cases = await count(databaseUrl, 'cases');
    const accounts = await count(databaseUrl, 'accounts');
    expect(cases).toBeGreaterThanOrEqual(35);
    // The demo slides go through the real conversion in the worker of the same process.
    await vi.waitFor(
      async () => {
        const rows = await queryOnce<{ status: string; width: number }>(
          databaseUrl,
          `SELECT status, width FROM images`,
        );
        expect(rows.length).toBeGreaterThan(0);
        expect(rows.every((row) => row.status === 'available' && row.width === 8192)).toBe(true);
      },
      { timeout: 120_000, interval: 1_000 },
    );
    // The demo slide is stored and converted once: every demo image names that conversion's pyramid and thumbnail.
    const shared = await queryOnce<{ key: string; thumbnail: string; images: number }>(
      databaseUrl,
      `SELECT l.pyramid_key AS key, i.thumbnail_key AS thumbnail, count(*)::int AS images
        FROM images i JOIN image_layers l ON l.image_id = i.id GROUP BY 1, 2`,
    );
    expect(shared).toEqual([{ key: expect.any(String), thumbnail: expect.any(String), images: 14 }]);
    expect(existsSync(path.join(dataDir, 'blobs', shared[0]!.key))).toBe(true);
    expect(existsSync(path.join(dataDir, 'blobs', shared[0]!.thumbnail))).toBe(true);
    expect(first.output().match(/image converted/g)).toHaveLength(1);
    expect(await first.stop()).toBe(0);

    const second = startServerProcess(env);
    cleanups.push(() => second.stop());
    await waitForHealthy(`http://localhost:${port}`, second);
    expect(second.output()).toContain('demo data already present');
    expect(second.output()).not.toContain('image converted');
    expect(await count(databaseUrl, 'cases')).toBe(cases);
    expect(await count(databaseUrl, 'accounts')).toBe(accounts);
    expect(await second.stop()).toBe(0);
  }, 240_000);

  it('refuses to start a separate role without DATABASE_URL', async () => {
    const server = startServerProcess({ DATA_DIR: await tempDir() }, ['--role', 'api']);
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('Env. variable is required: DATABASE_URL');
  });

  it('runs api and worker as separate processes against an external PostgreSQL', async () => {
    const external = await startEmbeddedPostgres({
      dataDir: path.join(await tempDir(), 'external-pg'),
      port: await freePort(),
      database: 'external',
    });
    cleanups.push(() => external.stop());
    const port = await freePort();
    const env = { DATABASE_URL: external.url, DATA_DIR: await tempDir(), PORT: String(port), SEED_DEMO: 'true' };

    const api = startServerProcess(env, ['--role', 'api']);
    cleanups.push(() => api.stop());
    expect(await waitForHealthy(`http://localhost:${port}`, api)).toMatchObject({ status: 'ok', role: 'api' });
    expect(await count(external.url, 'cases')).toBeGreaterThanOrEqual(35);

    // A second API process, with nothing to seed, at rest: libvips (sharp) is loaded by the first image, and the
    // built-in OpenID provider (oidc-provider, Koa) by its first request, not by the start.
    const resting = await freePort();
    const idle = startServerProcess({ ...env, PORT: String(resting), NODE_OPTIONS: `--require ${await koaProbe()}` }, [
      '--role',
      'api',
    ]);
    cleanups.push(() => idle.stop());
    await waitForHealthy(`http://localhost:${resting}`, idle);
    expect(await fs.readFile(`/proc/${idle.child.pid}/maps`, 'utf8')).not.toContain('libvips');
    expect(await koaLoaded(idle)).toBe(false);
    const discovery = await fetch(`http://localhost:${resting}/oidc/.well-known/openid-configuration`);
    expect(discovery.status).toBe(200);
    expect(await discovery.json()).toMatchObject({ issuer: expect.stringMatching(/\/oidc$/) });
    expect(await koaLoaded(idle)).toBe(true);
    expect(await idle.stop()).toBe(0);

    const client = new JobQueue<QueuePayloads>({ connectionString: external.url, policies: QUEUE_POLICIES });
    await client.start();
    cleanups.push(() => client.stop());
    const [group] = await queryOnce<{ id: string }>(external.url, `SELECT id FROM organizations ORDER BY name LIMIT 1`);
    await queryOnce(external.url, `UPDATE organizations SET used_attachment_bytes = 12345 WHERE id = $1`, [group!.id]);
    const jobId = await client.send('storage-usage', { organizationId: group!.id });

    // The api role queues jobs but never runs them.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect((await client.getJob('storage-usage', jobId))?.state).toBe('created');

    const worker = startServerProcess({ ...env, PORT: String(await freePort()) }, ['--role', 'worker']);
    cleanups.push(() => worker.stop());
    await vi.waitFor(async () => expect((await client.getJob('storage-usage', jobId))?.state).toBe('completed'), {
      timeout: 60_000,
      interval: 500,
    });
    const [usage] = await queryOnce<{ used_attachment_bytes: string }>(
      external.url,
      `SELECT used_attachment_bytes FROM organizations WHERE id = $1`,
      [group!.id],
    );
    expect(Number(usage!.used_attachment_bytes)).toBe(0);
    expect(await worker.stop()).toBe(0);
    expect(await api.stop()).toBe(0);
  }, 180_000);

  it('serves HTTP from HTTP_PROCESSES processes sharing the port, replaces one that dies, and stops them all', async () => {
    const external = await startEmbeddedPostgres({
      dataDir: path.join(await tempDir(), 'cluster-pg'),
      port: await freePort(),
      database: 'cluster',
    });
    cleanups.push(() => external.stop());
    const port = await freePort();
    const base = `http://localhost:${port}`;
    const env = { DATABASE_URL: external.url, DATA_DIR: await tempDir(), PORT: String(port), HTTP_PROCESSES: '2' };
    const api = startServerProcess(env, ['--role', 'api']);
    cleanups.push(() => api.stop());
    expect(await waitForHealthy(base, api)).toMatchObject({ status: 'ok', role: 'api' });
    const children = async () => {
      const text = await fs.readFile(`/proc/${api.child.pid}/task/${api.child.pid}/children`, 'utf8');
      return text.split(/\s+/).filter(Boolean).map(Number);
    };
    await vi.waitFor(async () => expect(await children()).toHaveLength(2), { timeout: 60_000, interval: 200 });
    const [first, second] = await children();

    process.kill(first!, 'SIGKILL');
    await vi.waitFor(
      async () => {
        const now = await children();
        expect(now).toHaveLength(2);
        expect(now).not.toContain(first);
        expect(now).toContain(second);
      },
      { timeout: 60_000, interval: 200 },
    );
    expect(await waitForHealthy(base, api)).toMatchObject({ status: 'ok' });

    const last = await children();
    expect(await api.stop()).toBe(0);
    for (const pid of last) expect(existsSync(`/proc/${pid}`), `HTTP process ${pid} left running`).toBe(false);
  }, 180_000);
});
