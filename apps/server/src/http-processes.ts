import cluster, { type Worker } from 'node:cluster';
import { once } from 'node:events';
import type { Logger } from 'pino';

/** Marks the forked processes; they only serve HTTP (see main.ts). */
export const HTTP_PROCESS_ENV = 'PATHOLOGY_HTTP_PROCESS';

// A process that keeps dying right after start (bad config, port taken) is not restarted in a tight loop.
const RESTART_DELAY_MS = 1000;

/**
 * Forks `count` processes that share the HTTP port through Node's cluster module (the primary hands
 * connections out in turn), so tiles and API requests use every core. One that dies is replaced.
 */
export function forkHttpProcesses(count: number, env: Record<string, string>, log: Logger): () => Promise<void> {
  let stopping = false;
  const workers = new Set<Worker>();
  const fork = () => {
    const worker = cluster.fork({ ...env, [HTTP_PROCESS_ENV]: '1' });
    workers.add(worker);
    worker.on('exit', (code, signal) => {
      workers.delete(worker);
      if (stopping) return;
      log.error({ pid: worker.process.pid, code, signal }, 'HTTP process ended; starting another');
      setTimeout(fork, RESTART_DELAY_MS).unref();
    });
  };
  for (let i = 0; i < count; i++) fork();

  return async () => {
    stopping = true;
    await Promise.all(
      // Ctrl-C reaches the whole process group: some may be gone already.
      [...workers]
        .filter((worker) => !worker.isDead())
        .map(async (worker) => {
          const exited = once(worker, 'exit');
          worker.process.kill('SIGTERM');
          await exited;
        }),
    );
  };
}

/** True in a process forkHttpProcesses started. */
export function isHttpProcess(): boolean {
  return cluster.isWorker && process.env[HTTP_PROCESS_ENV] === '1';
}
