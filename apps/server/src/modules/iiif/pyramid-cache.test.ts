import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, expect, it, vi } from 'vitest';
import { writeTinyTiledTiff } from '../../imaging/tiny-tiff.test-support.ts';
import { FilesystemBlobStore } from '../../storage/filesystem-blob-store.ts';
import { createPyramidCache } from './pyramid-cache.ts';

const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'pyramid-cache-'));
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

/** Files this process holds open although they were deleted: their disk space is not given back. */
async function openDeleted(folder: string): Promise<string[]> {
  const fds = await fs.readdir('/proc/self/fd');
  const targets = await Promise.all(fds.map((fd) => fs.readlink(`/proc/self/fd/${fd}`).catch(() => '')));
  return targets.filter((target) => target.startsWith(folder) && target.endsWith(' (deleted)'));
}

async function openFiles(folder: string): Promise<string[]> {
  const fds = await fs.readdir('/proc/self/fd');
  const targets = await Promise.all(fds.map((fd) => fs.readlink(`/proc/self/fd/${fd}`).catch(() => '')));
  return targets.filter((target) => target.startsWith(folder));
}

it('closes an open pyramid once its file is deleted, by this process or another, so its disk space comes back', async () => {
  const blobs = new FilesystemBlobStore(path.join(dir, 'blobs'));
  const file = path.join(dir, 'layer.tif');
  await writeTinyTiledTiff(file, { width: 512, height: 512, tile: 256 });
  const keys = ['images/a/conversions/c/layer-0.tif', 'images/b/conversions/c/layer-0.tif'];
  for (const key of keys) await blobs.put(key, (await fs.open(file)).createReadStream());
  const cache = createPyramidCache({ blobs, cacheDir: path.join(dir, 'cache'), checkMs: 50 });
  try {
    for (const key of keys) expect((await cache.get(key)).levels).toHaveLength(1);
    // Deleted as another process would: nothing tells this cache.
    await fs.unlink(path.join(blobs.root, keys[0]!));
    expect(await openDeleted(blobs.root)).toHaveLength(1);
    await vi.waitFor(async () => expect(await openDeleted(blobs.root)).toEqual([]), { timeout: 10_000, interval: 100 });
    await expect(cache.get(keys[0]!)).rejects.toThrow('missing');
    // The other pyramid stays open and served.
    const kept = await cache.get(keys[1]!);
    expect(await kept.reader.read(0, 2)).toEqual(Buffer.from('II'));
  } finally {
    await cache.closeAll();
  }
}, 20_000);

it('closes the file of a blob that is no TIFF when it fails to open as a pyramid, not leaving it to the garbage collector', async () => {
  const blobs = new FilesystemBlobStore(path.join(dir, 'not-tiff'));
  const key = 'images/c/original';
  await blobs.put(key, Readable.from([Buffer.from('PK\u0003\u0004 a zip of DICOM instances, not a TIFF')]));
  const cache = createPyramidCache({ blobs, cacheDir: path.join(dir, 'not-tiff-cache') });
  try {
    await expect(cache.get(key)).rejects.toThrow();
    expect(await openFiles(blobs.root)).toEqual([]);
  } finally {
    await cache.closeAll();
  }
});
