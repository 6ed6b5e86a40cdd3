import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ensureServerBuild, SERVER_MAIN } from '../../apps/server/build.js';
import { freePort } from './free-port.ts';
import { repositoryRoot, resultsDir } from './paths.ts';

export interface AppServer {
  /** e.g. http://localhost:41234 */
  url: string;
  dataDir: string;
  logFile: string;
  /**
   * SIGTERM, wait for the exit (SIGKILL to the process group after the grace period), remove the data.
   * Resolves with the exit code, or the signal name when it had to be killed.
   */
  stop(): Promise<number | string | null>;
  /**
   * Stops the server and starts it again on the same port and data, resolving once it is healthy again: `graceful`
   * is a deployment's restart (SIGTERM: requests in flight get the drain's grace), `kill` a crash (SIGKILL to the
   * whole process group, its PostgreSQL included, which recovers on the next start).
   */
  restart(how: RestartKind): Promise<void>;
}

export type RestartKind = 'graceful' | 'kill';

export interface StartAppServerOptions {
  /** Extra environment for the server, on top of the fresh port and data folder. */
  env?: Record<string, string>;
  startTimeoutMs?: number;
  stopTimeoutMs?: number;
  /** Keep the data folder after stop, to inspect the database or stored files. */
  keepData?: boolean;
  /** Log file name in the results folder, for a journey's own server beside the shared one. Default app-server.log. */
  logName?: string;
}

/** How often a starting server is asked whether it is healthy; each start (and restart) waits half of it for nothing. */
const POLL_INTERVAL_MS = 100;

async function tail(file: string, lines = 40): Promise<string> {
  const text = await fsp.readFile(file, 'utf8').catch(() => '');
  return text.split('\n').slice(-lines).join('\n');
}

/** One run of the server process; a restart starts another on the same port, data and log. */
interface ServerProcess {
  child: ChildProcess;
  exited: Promise<number | string | null>;
}

/** Starts the real server (`node apps/server/dist/main.js`, built when stale) on a free port and a fresh data folder. */
export async function startAppServer(options: StartAppServerOptions = {}): Promise<AppServer> {
  await ensureServerBuild(repositoryRoot);
  const { startTimeoutMs = 180_000, stopTimeoutMs = 30_000 } = options;
  const [port, embeddedPgPort] = [await freePort(), await freePort()];
  const url = `http://localhost:${port}`;
  const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'pathology-e2e-'));
  // mkdtemp makes it 0700; run as root, embedded PostgreSQL's initdb runs as another user and must enter it.
  await fsp.chmod(dataDir, 0o755);
  await fsp.mkdir(resultsDir, { recursive: true });
  const logFile = path.join(resultsDir, options.logName ?? 'app-server.log');
  const log = fs.createWriteStream(logFile);

  const launch = (): ServerProcess => {
    const child = spawn(process.execPath, ['--enable-source-maps', SERVER_MAIN], {
      cwd: repositoryRoot,
      env: {
        ...process.env,
        PORT: String(port),
        DATA_DIR: dataDir,
        PUBLIC_URL: url,
        // A developer's own `npm start` may hold the default embedded PostgreSQL port.
        EMBEDDED_PG_PORT: String(embeddedPgPort),
        // Journeys wait on conversions beside a busy test run: at the default niceness those would starve.
        CONVERSION_NICENESS: '0',
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Own process group, so a hung server and its PostgreSQL children can be killed together as a last resort.
      detached: true,
    });
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    const exited = new Promise<number | string | null>((resolve) =>
      child.once('exit', (code, signal) => resolve(code ?? signal)),
    );
    return { child, exited };
  };

  const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

  /** Ends the process (and, when killed, its whole group) and resolves with its exit code or signal. */
  const end = async ({ child, exited }: ServerProcess, how: RestartKind) => {
    if (running(child)) {
      if (how === 'kill' && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      else child.kill('SIGTERM');
      const timedOut = Symbol('timeout');
      const outcome = await Promise.race([exited, sleep(stopTimeoutMs).then(() => timedOut)]);
      if (outcome === timedOut && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    }
    return exited;
  };

  let current = launch();

  const stop = async () => {
    const exit = await end(current, 'graceful');
    await new Promise<void>((resolve) => log.end(resolve));
    if (!options.keepData) await fsp.rm(dataDir, { recursive: true, force: true });
    return exit;
  };

  const waitHealthy = async () => {
    const deadline = Date.now() + startTimeoutMs;
    let lastProblem = 'no answer yet';
    while (Date.now() < deadline) {
      const { child } = current;
      if (!running(child)) {
        await stop();
        throw new Error(
          `The app server exited during start-up (${child.exitCode ?? child.signalCode}); log ${logFile}:\n${await tail(logFile)}`,
        );
      }
      try {
        const response = await fetch(`${url}/api/v1/health`, { signal: AbortSignal.timeout(5_000) });
        if (response.status === 200) return;
        lastProblem = `health answered ${response.status}: ${await response.text()}`;
      } catch (error) {
        lastProblem = error instanceof Error ? error.message : String(error);
      }
      await sleep(POLL_INTERVAL_MS);
    }
    await stop();
    throw new Error(
      `The app server was not healthy within ${startTimeoutMs} ms (${lastProblem}); log ${logFile}:\n${await tail(logFile)}`,
    );
  };

  const restart = async (how: RestartKind) => {
    const exit = await end(current, how);
    log.write(`\n--- e2e: the app server ended (${how}: ${exit}); starting it again ---\n`);
    current = launch();
    await waitHealthy();
  };

  await waitHealthy();
  return { url, dataDir, logFile, stop, restart };
}
