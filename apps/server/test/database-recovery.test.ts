import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { MESSAGES } from '@pathology/contract';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { isRunning } from '../src/db/leftover-postmaster.ts';
import { freePort } from './free-port.ts';
import { tokenForProcess } from './process-token.ts';
import { startServerProcess, waitForHealthy } from './server-process.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A fresh DATA_DIR, port and embedded PostgreSQL port, as `npm start` would use them. */
async function installation() {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'pathology-recovery-'));
  await fs.chmod(dataDir, 0o755);
  const port = await freePort();
  const pgPort = await freePort();
  const env = { DATA_DIR: dataDir, PORT: String(port), EMBEDDED_PG_PORT: String(pgPort) };
  const postmasterPid = async () =>
    Number((await fs.readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0]);
  cleanups.push(async () => {
    const pid = await postmasterPid().catch(() => 0);
    if (pid > 0 && isRunning(pid)) process.kill(pid, 'SIGKILL');
    await fs.rm(dataDir, { recursive: true, force: true });
  });
  return {
    env,
    baseUrl: `http://localhost:${port}`,
    databaseUrl: `postgres://postgres:postgres@127.0.0.1:${pgPort}/pathology`,
    postmasterPid,
  };
}

function start(env: Record<string, string>) {
  const server = startServerProcess(env);
  cleanups.push(() => server.stop());
  return server;
}

describe('the server after a crash', () => {
  it('starts again after kill -9, stopping the PostgreSQL the killed server left running', async () => {
    const { env, baseUrl, postmasterPid } = await installation();
    const first = start(env);
    await waitForHealthy(baseUrl, first);
    const leftover = await postmasterPid();
    first.child.kill('SIGKILL');
    await first.exited;
    expect(isRunning(leftover)).toBe(true);

    const second = start(env);
    await waitForHealthy(baseUrl, second);
    expect(isRunning(leftover)).toBe(false);
    expect(await postmasterPid()).not.toBe(leftover);
    expect(await second.stop()).toBe(0);
  }, 240_000);

  it('stops with a message naming the port and its setting when another program holds the PostgreSQL port', async () => {
    const { env } = await installation();
    const squatter = net.createServer().listen(Number(env.EMBEDDED_PG_PORT), '127.0.0.1');
    cleanups.push(() => new Promise((resolve) => squatter.close(resolve)));
    const server = start(env);
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain(`Port ${env.EMBEDDED_PG_PORT} is already used by another program`);
    expect(server.output()).toContain('EMBEDDED_PG_PORT');
    expect(server.output()).not.toContain('triggerUncaughtException');
  }, 120_000);
});

describe('the server while its embedded PostgreSQL dies', () => {
  it('answers 503 with Retry-After in API and tile routes, restarts the cluster and recovers without a restart', async () => {
    const { env, baseUrl, databaseUrl, postmasterPid } = await installation();
    const server = start(env);
    await waitForHealthy(baseUrl, server);
    const headers = { authorization: `Bearer ${await tokenForProcess(databaseUrl, baseUrl, 'member@demo.test')}` };
    const me = () => fetch(`${baseUrl}/api/v1/accounts/me`, { headers });
    const tile = () => fetch(`${baseUrl}/iiif/2/00000000-0000-4000-8000-000000000000/info.json`, { headers });
    expect((await me()).status).toBe(200);

    const killedAt = Date.now();
    process.kill(await postmasterPid(), 'SIGKILL');
    const [api, iiif] = await Promise.all([me(), tile()]);
    for (const response of [api, iiif]) {
      expect(response.status).toBe(503);
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await response.json()).toEqual({ message: MESSAGES.serviceUnavailable });
    }

    await vi.waitFor(async () => expect((await me()).status).toBe(200), { timeout: 30_000, interval: 250 });
    expect(Date.now() - killedAt).toBeLessThan(30_000);
    expect((await tile()).status).toBe(404);
    expect((await fetch(`${baseUrl}/api/v1/health`)).status).toBe(200);
    expect(server.child.exitCode).toBeNull();
    expect(server.output()).toContain('embedded PostgreSQL restarted');
    expect(await server.stop()).toBe(0);
  }, 240_000);
});
