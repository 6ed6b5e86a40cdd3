import fs from 'node:fs/promises';
import path from 'node:path';
import { isRunning } from '../db/leftover-postmaster.ts';

/** Another live server holds the lock on this DATA_DIR. */
export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `DATA_DIR is in use by process ${pid}: another server runs on ${dataDir}. ` +
        `Stop that server, or set DATA_DIR to another folder.`,
    );
  }
}

interface Owner {
  pid: number;
  /** When the process started (clock ticks since boot), so a pid the system gave to another process is not mistaken for the owner. */
  startTime: string | null;
}

export const LOCK_FILE = 'server.lock';

/**
 * Takes the DATA_DIR for this process, so that a second server on the same folder refuses before it
 * touches the embedded PostgreSQL (it would take the running cluster for a leftover and stop it).
 * The lock file names its owner; a lock whose owner is gone (kill -9, a crash, power loss) is stale
 * and taken over. Returns the release.
 */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const file = path.join(dataDir, LOCK_FILE);
  const mine: Owner = { pid: process.pid, startTime: await startTimeOf(process.pid) };
  const content = JSON.stringify(mine);
  // Written whole beside it, then linked into place: a rival never reads a half-written lock and takes it for stale.
  const draft = `${file}.${process.pid}`;
  await fs.writeFile(draft, content);
  try {
    for (;;) {
      try {
        await fs.link(draft, file);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const text = await fs.readFile(file, 'utf8').catch(() => null);
      const owner = text == null ? null : parseOwner(text);
      if (owner != null && (await isAlive(owner))) throw new DataDirInUseError(dataDir, owner.pid);
      // Stale: removed only while it still holds what was judged, then raced for again with a link.
      if ((await fs.readFile(file, 'utf8').catch(() => null)) === text) await fs.rm(file, { force: true });
    }
  } finally {
    await fs.rm(draft, { force: true });
  }
  return async () => {
    // Only our own lock is removed: a later owner's must stay.
    if ((await fs.readFile(file, 'utf8').catch(() => null)) === content) await fs.rm(file, { force: true });
  };
}

function parseOwner(text: string): Owner | null {
  try {
    const parsed = JSON.parse(text) as Partial<Owner>;
    return Number.isInteger(parsed.pid) && parsed.pid! > 0
      ? { pid: parsed.pid!, startTime: parsed.startTime ?? null }
      : null;
  } catch {
    // Half written by an owner killed while writing it: nobody holds it.
    return null;
  }
}

async function isAlive(owner: Owner): Promise<boolean> {
  if (!isRunning(owner.pid)) return false;
  const startTime = await startTimeOf(owner.pid);
  return owner.startTime == null || startTime == null || startTime === owner.startTime;
}

/** Field 22 of /proc/<pid>/stat; null where there is no /proc. */
export async function startTimeOf(pid: number): Promise<string | null> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (stat == null) return null;
  // The command name (field 2) is in parentheses and may itself hold spaces and parentheses.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields[19] ?? null;
}
