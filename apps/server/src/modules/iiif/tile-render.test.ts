import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FilesystemBlobStore } from '../../storage/filesystem-blob-store.ts';
import { parseImageRequest } from './iiif-params.ts';
import { createPyramidCache, type PyramidCache } from './pyramid-cache.ts';
import { createTileCache } from './tile-cache.ts';
import { renderImage } from './tile-render.ts';

const [WIDTH, HEIGHT] = [1300, 900];
let dir: string;
let legacyFile: string;
let pyramids: PyramidCache;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tile-render-'));
  const pixels = Buffer.alloc(WIDTH * HEIGHT * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 5 + Math.floor(i / 3900) * 11) % 256;
  // The layout earlier versions stored: libvips' tiffsave, RGB JPEG tiles sharing one JPEGTables.
  legacyFile = path.join(dir, 'legacy.tif');
  await sharp(pixels, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } })
    .tiff({ tile: true, tileWidth: 512, tileHeight: 512, pyramid: true, compression: 'jpeg', quality: 90 })
    .toFile(legacyFile);
  const blobs = new FilesystemBlobStore(path.join(dir, 'blobs'));
  await blobs.put('legacy', createReadStream(legacyFile));
  pyramids = createPyramidCache({ blobs, cacheDir: path.join(dir, 'cache') });
});
afterAll(async () => {
  await pyramids.closeAll();
  await fs.rm(dir, { recursive: true, force: true });
});

const request = (region: string, size: string) =>
  parseImageRequest({ region, size, rotation: '0', qualityFormat: 'default.jpg' }, { width: WIDTH, height: HEIGHT });

describe('renderImage on a pyramid written by an earlier version', () => {
  it('sends a stored tile with the shared JPEG tables put in front, decoding to the stored pixels', async () => {
    const pyramid = await pyramids.get('legacy');
    expect(pyramid.levels[0]!.jpegTables?.length).toBeGreaterThan(0);
    const answer = await renderImage(pyramid, request('512,0,512,512', '512,'), createTileCache(0));
    expect(answer.passThrough).toBe(true);
    const served = await sharp(answer.body).raw().toBuffer();
    const stored = await sharp(legacyFile).extract({ left: 512, top: 0, width: 512, height: 512 }).raw().toBuffer();
    expect(served.equals(stored)).toBe(true);
  });

  it('crops a bottom-edge tile by its frame header, without decoding', async () => {
    const pyramid = await pyramids.get('legacy');
    const answer = await renderImage(pyramid, request('0,512,512,388', '512,'), createTileCache(0));
    expect(answer.passThrough).toBe(true);
    expect(await sharp(answer.body).metadata()).toMatchObject({ width: 512, height: 388 });
  });
});
