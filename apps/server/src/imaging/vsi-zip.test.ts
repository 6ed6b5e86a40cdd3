import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidVsiZipError, validateVsiZip } from './index.ts';
import { buildZip, type ZipEntrySpec } from './zip-writer.test-support.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'vsi-zip-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function zipFile(name: string, entries: ZipEntrySpec[]): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, buildZip(entries));
  return file;
}

const validLayout: ZipEntrySpec[] = [
  { name: 'slide 1.vsi', data: Buffer.from('fake vsi header') },
  { name: '_slide 1_/' },
  { name: '_slide 1_/stack1/' },
  { name: '_slide 1_/stack1/frame_t.ets', data: Buffer.alloc(4096, 7), deflate: true },
];

async function expectInvalid(file: string, reason: RegExp): Promise<void> {
  const error = await validateVsiZip(file).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(InvalidVsiZipError);
  expect((error as InvalidVsiZipError).message).toBe('Invalid VSI zip file');
  expect((error as InvalidVsiZipError).reason).toMatch(reason);
}

describe('validateVsiZip', () => {
  it('accepts a VSI package and names its .vsi file', async () => {
    await expect(validateVsiZip(await zipFile('ok.zip', validLayout))).resolves.toEqual({ vsiName: 'slide 1.vsi' });
  });

  it('reads a package by ranges where it lies (an object in a bucket)', async () => {
    const file = await zipFile('ranges.zip', validLayout);
    const ranges: [number, number][] = [];
    const source = {
      size: (await stat(file)).size,
      read: (start: number, end: number) => {
        ranges.push([start, end]);
        return Promise.resolve(createReadStream(file, { start, end: end - 1 }));
      },
    };
    await expect(validateVsiZip(source)).resolves.toEqual({ vsiName: 'slide 1.vsi' });
    expect(ranges.length).toBeGreaterThan(0);
  });

  it('accepts frames nested deeper inside a stack folder', async () => {
    const file = await zipFile('nested.zip', [
      { name: 'a.vsi', data: Buffer.from('x') },
      { name: '_a_/stack10001/sub/frame_t.ets', data: Buffer.from('y') },
    ]);
    await expect(validateVsiZip(file)).resolves.toEqual({ vsiName: 'a.vsi' });
  });

  it('rejects a file that is not a zip', async () => {
    const file = path.join(dir, 'garbage.zip');
    await writeFile(file, Buffer.from('PK\u0003\u0004 but nothing else of a zip'));
    await expectInvalid(file, /not a readable zip/);
  });

  it('rejects a zip without the VSI layout', async () => {
    await expectInvalid(await zipFile('plain.zip', [{ name: 'notes.txt', data: Buffer.from('hi') }]), /exactly one/);
    await expectInvalid(
      await zipFile('no-ets.zip', [{ name: 'a.vsi', data: Buffer.from('x') }, { name: '_a_/stack1/readme.txt' }]),
      /\.ets/,
    );
    await expectInvalid(
      await zipFile('wrong-folder.zip', [{ name: 'a.vsi' }, { name: '_b_/stack1/frame_t.ets' }]),
      /\.ets/,
    );
    await expectInvalid(
      await zipFile('two-vsi.zip', [{ name: 'a.vsi' }, { name: 'b.vsi' }, { name: '_a_/stack1/f.ets' }]),
      /found 2/,
    );
  });

  it.each([
    ['parent segments', '../evil.vsi'],
    ['absolute path', '/etc/evil.vsi'],
    ['backslashes', '..\\..\\evil.vsi'],
    ['drive letter', 'C:/evil.vsi'],
  ])('rejects zip-slip names (%s)', async (_label, name) => {
    const file = await zipFile(`slip-${_label.replace(/\W/g, '')}.zip`, [
      { name, data: Buffer.from('x') },
      ...validLayout,
    ]);
    await expectInvalid(file, /not a readable zip|invalid|absolute|relative|characters/i);
  });

  it('rejects a zip bomb by expansion ratio', async () => {
    const zeros = {
      name: '_slide 1_/stack1/bomb.ets',
      data: Buffer.alloc(1024),
      deflate: true,
      claimedSize: 200 * 1024 * 1024,
    };
    await expectInvalid(await zipFile('ratio-bomb.zip', [...validLayout, zeros]), /expands/);
  });

  it('rejects a zip whose entries add up to more than 64 GiB', async () => {
    // 700 × 99 MiB ≈ 69 GiB; each entry stays under 100 MB, so only the total trips, not the ratio rule.
    const many = Array.from({ length: 700 }, (_, i) => ({
      name: `_slide 1_/stack1/f${i}.ets`,
      data: Buffer.alloc(1000),
      deflate: true,
      claimedSize: 99 * 1024 * 1024,
    }));
    await expectInvalid(await zipFile('total-bomb.zip', [...validLayout, ...many]), /64 GiB/);
  });

  it('rejects more than 10000 entries', async () => {
    const many = Array.from({ length: 10_001 }, (_, i) => ({ name: `_slide 1_/stack1/f${i}.ets` }));
    await expectInvalid(await zipFile('many.zip', [...validLayout, ...many]), /entries/);
  });

  it('rejects encrypted entries', async () => {
    const encrypted = validLayout.map((entry) => (entry.name.endsWith('.ets') ? { ...entry, flags: 1 } : entry));
    await expectInvalid(await zipFile('encrypted.zip', encrypted), /encrypted/);
  });
});
