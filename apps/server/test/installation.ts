import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { isRunning } from '../src/db/leftover-postmaster.ts';
import { freePort } from './free-port.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';

/**
 * A fresh DATA_DIR, port and embedded PostgreSQL port, as `npm start` would use them, for tests
 * that start, kill and restart the real server, with any `settings` of the test's own on top. `cleanup` stops what
 * is left, cluster included.
 */
export async function installation(settings: Record<string, string> = {}) {
  const cleanups: (() => Promise<unknown>)[] = [];
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'pathology-install-'));
  await fs.chmod(dataDir, 0o755);
  const port = await freePort();
  const pgPort = await freePort();
  const env = { ...settings, DATA_DIR: dataDir, PORT: String(port), EMBEDDED_PG_PORT: String(pgPort) };
  const postmasterPid = async () =>
    Number((await fs.readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0]);
  return {
    env,
    baseUrl: `http://localhost:${port}`,
    databaseUrl: `postgres://postgres:postgres@127.0.0.1:${pgPort}/pathology`,
    postmasterPid,
    /** Starts the server on this installation; it is stopped by cleanup. */
    start: (): ServerProcess => {
      const server = startServerProcess(env);
      cleanups.push(() => server.stop());
      return server;
    },
    onCleanup: (step: () => Promise<unknown>) => cleanups.push(step),
    cleanup: async (): Promise<void> => {
      for (const step of cleanups.reverse()) await step();
      const pid = await postmasterPid().catch(() => 0);
      if (pid > 0 && isRunning(pid)) process.kill(pid, 'SIGKILL');
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** `fresh()` makes an installation for one test; all are cleaned up after the file's tests. */
export function useInstallations() {
  const made: Installation[] = [];
  afterAll(async () => {
    for (const one of made) await one.cleanup();
  });
  return {
    fresh: async (settings?: Record<string, string>): Promise<Installation> => {
      const one = await installation(settings);
      made.push(one);
      return one;
    },
  };
}

export type Installation = Awaited<ReturnType<typeof installation>>;
