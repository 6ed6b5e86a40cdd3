import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { afterAll, expect, it } from 'vitest';
import { attemptFolderPrefix, sweepStaleScratch } from './scratch-sweep.ts';

const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'pathology-scratch-'));
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

const imageA = '0b5d5a57-51a4-4b8e-9c3b-1b1e3c5f2a10';
const imageB = '7f3c1e2a-9d4b-4c8e-8a1f-2b3c4d5e6f70';

it('removes the folders of attempts no live worker runs, however young, and other scratch only when old', async () => {
  const old = new Date(Date.now() - 3 * 3600_000);
  const killed = await fs.mkdtemp(attemptFolderPrefix(dir, imageA, 0));
  await fs.writeFile(path.join(killed, 'layer-0.tif'), 'x');
  const running = await fs.mkdtemp(attemptFolderPrefix(dir, imageA, 1));
  const otherImage = await fs.mkdtemp(attemptFolderPrefix(dir, imageB, 1));
  await fs.mkdir(path.join(dir, 'convert-legacy-1'));
  await fs.mkdir(path.join(dir, 'convert-legacy-2'));
  await fs.writeFile(path.join(dir, `${imageA}.zip`), 'x');
  await fs.mkdir(path.join(dir, 'tus'));
  for (const name of ['convert-legacy-1', `${imageA}.zip`, 'tus']) await fs.utimes(path.join(dir, name), old, old);

  const { removed } = await sweepStaleScratch({
    scratchDir: dir,
    running: async () => [{ imageId: imageA, retryCount: 1 }],
    maxAgeMs: 3600_000,
  });
  expect(removed.sort()).toEqual(
    [`${imageA}.zip`, 'convert-legacy-1', path.basename(killed), path.basename(otherImage)].sort(),
  );
  expect((await fs.readdir(dir)).sort()).toEqual(['convert-legacy-2', path.basename(running), 'tus'].sort());
});

it('goes on past a folder another process still writes, and names it for a later sweep', async () => {
  const written = await fs.mkdtemp(attemptFolderPrefix(dir, imageB, 7));
  const abandoned = await fs.mkdtemp(attemptFolderPrefix(dir, imageB, 8));
  await fs.mkdir(path.join(written, 'tiles'));
  for (let i = 0; i < 200; i++) await fs.writeFile(path.join(written, 'tiles', `${i}.jpg`), 'x');
  // As a dzsave that outlived its server keeps adding tiles while the folder is removed.
  const writer = spawn('sh', ['-c', `i=0; while :; do : > "${written}/tiles/w$i" 2>/dev/null; i=$((i+1)); done`], {
    stdio: 'ignore',
  });
  try {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const { removed, busy } = await sweepStaleScratch({ scratchDir: dir, running: async () => [], maxAgeMs: 3600_000 });
    expect(removed).toContain(path.basename(abandoned));
    expect(busy).toEqual([path.basename(written)]);
  } finally {
    writer.kill('SIGKILL');
  }
  await new Promise((resolve) => writer.once('exit', resolve));
  const { removed } = await sweepStaleScratch({ scratchDir: dir, running: async () => [], maxAgeMs: 3600_000 });
  expect(removed).toContain(path.basename(written));
});
