import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearStaleSocketLock } from './leftover-postmaster.ts';

describe('the socket lock a killed PostgreSQL leaves', () => {
  let socketDir: string;
  const dataDir = '/srv/pathology/data/pg';
  const port = 54_321;
  const lockFile = () => path.join(socketDir, `.s.PGSQL.${port}.lock`);
  const writeLock = (pid: number, folder: string) =>
    fs.writeFile(lockFile(), `${pid}\n${folder}\n1795854482\n${port}\n${socketDir}\n`);
  const exists = () =>
    fs.access(lockFile()).then(
      () => true,
      () => false,
    );

  beforeEach(async () => {
    socketDir = await fs.mkdtemp(path.join(os.tmpdir(), 'pg-socket-lock-'));
  });
  afterEach(() => fs.rm(socketDir, { recursive: true, force: true }));

  it('is removed when its postmaster is gone', async () => {
    const gone = spawnSync('true').pid;
    await writeLock(gone, dataDir);
    expect(await clearStaleSocketLock(dataDir, port, socketDir)).toBe(true);
    expect(await exists()).toBe(false);
  });

  it('is removed when its pid is a process that is no PostgreSQL (a killed one not yet reaped, or a reused pid)', async () => {
    await writeLock(process.pid, dataDir);
    expect(await clearStaleSocketLock(dataDir, port, socketDir)).toBe(true);
    expect(await exists()).toBe(false);
  });

  it('is kept when it is another cluster’s, and nothing happens without one', async () => {
    await writeLock(spawnSync('true').pid, '/home/someone/other-cluster');
    expect(await clearStaleSocketLock(dataDir, port, socketDir)).toBe(false);
    expect(await exists()).toBe(true);
    await fs.rm(lockFile());
    expect(await clearStaleSocketLock(dataDir, port, socketDir)).toBe(false);
  });
});
