import net from 'node:net';
import { MESSAGES } from '@pathology/contract';
import { describe, expect, it, vi } from 'vitest';
import { isRunning } from '../src/db/leftover-postmaster.ts';
import { useInstallations } from './installation.ts';
import { tokenForProcess } from './process-token.ts';
import { waitForHealthy } from './server-process.ts';

const { fresh } = useInstallations();

/** Listens on a loopback port, as another program holding it would; waits for the port to be free (up to 5 s). */
async function holdPort(port: number): Promise<net.Server> {
  for (const deadline = Date.now() + 5_000; ;) {
    const server = net.createServer();
    const listening = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false)).listen(port, '127.0.0.1', () => resolve(true));
    });
    if (listening) return server;
    if (Date.now() > deadline) throw new Error(`port ${port} stayed busy`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the server after a crash', () => {
  it('starts again after kill -9, stopping the PostgreSQL the killed server left running', async () => {
    const { baseUrl, postmasterPid, start } = await fresh();
    const first = start();
    await waitForHealthy(baseUrl, first);
    const leftover = await postmasterPid();
    first.child.kill('SIGKILL');
    await first.exited;
    expect(isRunning(leftover)).toBe(true);

    const second = start();
    await waitForHealthy(baseUrl, second);
    expect(isRunning(leftover)).toBe(false);
    expect(await postmasterPid()).not.toBe(leftover);
    expect(await second.stop()).toBe(0);
  }, 240_000);

  it('stops with a message naming the port and its setting when another program holds the PostgreSQL port', async () => {
    const { env, start, onCleanup } = await fresh();
    const squatter = await holdPort(Number(env.EMBEDDED_PG_PORT));
    onCleanup(() => new Promise((resolve) => squatter.close(resolve)));
    const server = start();
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain(`Port ${env.EMBEDDED_PG_PORT} is already used by another program`);
    expect(server.output()).toContain('EMBEDDED_PG_PORT');
    expect(server.output()).not.toContain('triggerUncaughtException');
  }, 120_000);
});

describe('the server while its embedded PostgreSQL dies', () => {
  it('answers 503 with Retry-After in API and tile routes, restarts the cluster and recovers without a restart', async () => {
    const { baseUrl, databaseUrl, postmasterPid, start } = await fresh();
    const server = start();
    await waitForHealthy(baseUrl, server);
    const headers = { authorization: `Bearer ${await tokenForProcess(databaseUrl, baseUrl, 'member@demo.test')}` };
    const me = () => fetch(`${baseUrl}/api/v1/accounts/me`, { headers });
    const refreshToken = () =>
      fetch(`${baseUrl}/oidc/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: 'unknown',
          client_id: 'pathology-web',
        }),
      });
    const tile = () => fetch(`${baseUrl}/iiif/2/00000000-0000-4000-8000-000000000000/info.json`, { headers });
    expect((await me()).status).toBe(200);

    process.kill(await postmasterPid(), 'SIGKILL');
    const killedAt = Date.now();
    // Backends of the dead postmaster may answer for a moment; until the supervisor has the cluster
    // back (a second or more), every route that needs the database says 503.
    const outage = async (call: () => Promise<Response>) => {
      let response: Response | undefined;
      await vi.waitFor(
        async () => {
          response = await call();
          expect(response.status).toBe(503);
        },
        { timeout: 10_000, interval: 50 },
      );
      expect(Number(response!.headers.get('retry-after'))).toBeGreaterThan(0);
      return response!;
    };
    const [api, iiif] = await Promise.all([outage(me), outage(tile)]);
    for (const response of [api, iiif]) expect(await response.json()).toEqual({ message: MESSAGES.serviceUnavailable });
    // The sign-in provider's endpoints too (a token refresh looks the grant up in the database).
    await outage(refreshToken);

    await vi.waitFor(async () => expect((await me()).status).toBe(200), { timeout: 30_000, interval: 250 });
    expect(Date.now() - killedAt).toBeLessThan(30_000);
    // The health report follows the same state: once the API answers again, so does it.
    expect((await fetch(`${baseUrl}/api/v1/health`)).status).toBe(200);
    expect((await tile()).status).toBe(404);
    expect((await refreshToken()).status).toBe(400);
    expect((await fetch(`${baseUrl}/api/v1/health`)).status).toBe(200);
    expect(server.child.exitCode).toBeNull();
    expect(server.output()).toContain('embedded PostgreSQL restarted');
    expect(await server.stop()).toBe(0);
  }, 240_000);
});
