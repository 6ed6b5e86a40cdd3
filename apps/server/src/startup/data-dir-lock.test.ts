import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirInUseError, LOCK_FILE, lockDataDir, startTimeOf } from './data-dir-lock.ts';

let dataDir: string;
afterEach(() => fs.rm(dataDir, { recursive: true, force: true }));

async function freshDir(): Promise<string> {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'data-dir-lock-'));
  return dataDir;
}

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await once(child, 'exit');
  return child.pid!;
}

const lockFile = () => path.join(dataDir, LOCK_FILE);

describe('lockDataDir', () => {
  it('refuses a folder a live process holds, naming that process', async () => {
    const release = await lockDataDir(await freshDir());
    const second = lockDataDir(dataDir);
    await expect(second).rejects.toBeInstanceOf(DataDirInUseError);
    await expect(second).rejects.toThrow(`DATA_DIR is in use by process ${process.pid}`);
    await release();
    await expect(fs.access(lockFile())).rejects.toThrow();
  });

  it('takes over the lock of a process that is gone (kill -9)', async () => {
    await freshDir();
    await fs.writeFile(lockFile(), JSON.stringify({ pid: await deadPid(), startTime: '1' }));
    const release = await lockDataDir(dataDir);
    expect(JSON.parse(await fs.readFile(lockFile(), 'utf8'))).toMatchObject({ pid: process.pid });
    await release();
  });

  it('takes over a lock whose pid now belongs to a process started later', async () => {
    await freshDir();
    const started = Number(await startTimeOf(process.pid));
    await fs.writeFile(lockFile(), JSON.stringify({ pid: process.pid, startTime: String(started - 1) }));
    const release = await lockDataDir(dataDir);
    await release();
  });

  it('takes over a half-written lock file', async () => {
    await freshDir();
    await fs.writeFile(lockFile(), '{"pid":');
    const release = await lockDataDir(dataDir);
    await release();
  });

  it('release leaves a lock that another owner took since', async () => {
    const release = await lockDataDir(await freshDir());
    await fs.writeFile(lockFile(), JSON.stringify({ pid: 1, startTime: null }));
    await release();
    expect(await fs.readFile(lockFile(), 'utf8')).toContain('"pid":1');
  });
});
