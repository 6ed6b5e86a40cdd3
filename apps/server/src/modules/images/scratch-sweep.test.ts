import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { sweepStaleScratch } from './scratch-sweep.ts';

const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'pathology-scratch-'));
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

it('removes only old scratch of the image pipeline', async () => {
  const old = new Date(Date.now() - 3 * 3600_000);
  await fs.mkdir(path.join(dir, 'convert-a-1'));
  await fs.writeFile(path.join(dir, 'convert-a-1', 'layer-0.tif'), 'x');
  await fs.writeFile(path.join(dir, '0b5d5a57-51a4-4b8e-9c3b-1b1e3c5f2a10.zip'), 'x');
  await fs.mkdir(path.join(dir, 'convert-b-2'));
  await fs.mkdir(path.join(dir, 'tus'));
  for (const name of ['convert-a-1', '0b5d5a57-51a4-4b8e-9c3b-1b1e3c5f2a10.zip', 'tus']) {
    await fs.utimes(path.join(dir, name), old, old);
  }
  const removed = await sweepStaleScratch(dir, 3600_000);
  expect(removed.sort()).toEqual(['0b5d5a57-51a4-4b8e-9c3b-1b1e3c5f2a10.zip', 'convert-a-1']);
  expect((await fs.readdir(dir)).sort()).toEqual(['convert-b-2', 'tus']);
});
