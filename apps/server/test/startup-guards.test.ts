import { existsSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { isRunning } from '../src/db/leftover-postmaster.ts';
import { freePort } from './free-port.ts';
import { useInstallations } from './installation.ts';
import { startServerProcess, waitForHealthy } from './server-process.ts';

const { fresh } = useInstallations();

/** Listens on the port on every address, as another program serving on it would. */
async function holdPort(port: number): Promise<net.Server> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '0.0.0.0', resolve));
  return server;
}

describe('a second server on a running installation', () => {
  it('refuses with the running owner of DATA_DIR and leaves the running server and its PostgreSQL alone', async () => {
    // The guard is the same with or without demo data: its seeding and slide conversion would only add CPU.
    const { env, baseUrl, postmasterPid, start, onCleanup } = await fresh({ SEED_DEMO: 'false' });
    const first = start();
    await waitForHealthy(baseUrl, first);
    const postgres = await postmasterPid();

    const statuses: number[] = [];
    let polling = true;
    const poll = (async () => {
      while (polling) {
        const response = await fetch(`${baseUrl}/api/v1/health`).catch(() => null);
        statuses.push(response?.status ?? 0);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const second = startServerProcess({ ...env, PORT: String(await freePort()) });
    onCleanup(() => second.stop());
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(`DATA_DIR is in use by process ${first.child.pid}`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    polling = false;
    await poll;

    expect(statuses.length).toBeGreaterThan(5);
    expect(statuses.every((status) => status === 200)).toBe(true);
    expect(await postmasterPid()).toBe(postgres);
    expect(isRunning(postgres)).toBe(true);
    expect(await first.stop()).toBe(0);
  }, 240_000);
});

describe('a server whose PORT is taken', () => {
  it('says so before PostgreSQL starts and exits non-zero', async () => {
    const { env, start, onCleanup } = await fresh();
    const squatter = await holdPort(Number(env.PORT));
    onCleanup(() => new Promise((resolve) => squatter.close(resolve)));
    const server = start();
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain(`PORT ${env.PORT} is in use; set PORT`);
    expect(server.output()).not.toContain('EADDRINUSE');
    expect(server.output()).not.toContain('starting embedded PostgreSQL');
    expect(existsSync(path.join(env.DATA_DIR, 'postgres'))).toBe(false);
  }, 120_000);

  it('stops its embedded PostgreSQL when the port is taken while it starts', async () => {
    const { env, postmasterPid, start, onCleanup } = await fresh();
    const server = start();
    // PostgreSQL runs, so the early check has passed: another program takes the port before the server listens.
    const postgres = await vi.waitFor(postmasterPid, { timeout: 120_000, interval: 50 });
    const squatter = await holdPort(Number(env.PORT));
    onCleanup(() => new Promise((resolve) => squatter.close(resolve)));
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain(`PORT ${env.PORT} is in use; set PORT`);
    expect(isRunning(postgres)).toBe(false);
  }, 240_000);
});
