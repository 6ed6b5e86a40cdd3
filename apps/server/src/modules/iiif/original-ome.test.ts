import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meanAbsoluteDifference } from '#test/pixels.ts';
import { slidePath } from '#test/testdata.ts';
import { SMALL_SVS } from '#test/uploads.ts';
import { convertImage } from '../../imaging/index.ts';
import { writePyramidalOmeTiff } from '../../imaging/ome-tiff.test-support.ts';
import { FilesystemBlobStore } from '../../storage/filesystem-blob-store.ts';
import { parseImageRequest } from './iiif-params.ts';
import { renderFromOriginal } from './original-render.ts';
import { createOriginalSource, type OpenOriginal, type OriginalSource } from './original-source.ts';
import { createPyramidCache, type PyramidCache } from './pyramid-cache.ts';
import { createTileCache } from './tile-cache.ts';
import { renderImage } from './tile-render.ts';

/** The real Aperio slide's 2220 × 2967 px: four levels (scale 1, 2, 4, 8) in the pyramid to be. */
const WIDTH = 2220;
const HEIGHT = 2967;

/** The tile OpenSeadragon asks for at (`level`, `x`, `y`): region in full-resolution pixels, size rounded up. */
function tileRequest(level: number, x: number, y: number) {
  const scale = 2 ** level;
  const region = { x: x * 512 * scale, y: y * 512 * scale };
  const width = Math.min(512 * scale, WIDTH - region.x);
  const height = Math.min(512 * scale, HEIGHT - region.y);
  return parseImageRequest(
    {
      region: `${region.x},${region.y},${width},${height}`,
      size: `${Math.ceil(width / scale)},`,
      rotation: '0',
      qualityFormat: 'default.png',
    },
    { width: WIDTH, height: HEIGHT },
  );
}

/** Level 0 inside and at the bottom-right edge, level 1 and level 2: three levels, as the fidelity rule asks. */
const TILES = [
  [0, 1, 2],
  [0, 4, 5],
  [1, 1, 1],
  [2, 0, 1],
] as const;

describe('an OME-TIFF served from its original while it converts', () => {
  let dir: string;
  let blobs: FilesystemBlobStore;
  let pyramids: PyramidCache;
  let originals: OriginalSource;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'original-ome-'));
    blobs = new FilesystemBlobStore(path.join(dir, 'blobs'));
    pyramids = createPyramidCache({ blobs, cacheDir: path.join(dir, 'cache') });
    originals = createOriginalSource(createPyramidCache({ blobs, cacheDir: path.join(dir, 'cache') }));
  });
  afterAll(async () => {
    await pyramids.closeAll();
    await originals.closeAll();
    await fs.rm(dir, { recursive: true, force: true });
  });

  async function open(key: string, file: string): Promise<OpenOriginal> {
    await blobs.put(key, createReadStream(file));
    return originals.open(key);
  }

  /** Layer 0's pyramid as the real conversion writes it from the same file. */
  async function converted(key: string, file: string) {
    const workDir = await fs.mkdtemp(path.join(dir, 'work-'));
    const image = await convertImage({ sourcePath: file, workDir, timeoutMs: 120_000 });
    expect(image).toMatchObject({ format: 'ome-tiff', width: WIDTH, height: HEIGHT });
    await blobs.put(key, createReadStream(image.layers[0]!.pyramidPath));
    return pyramids.get(key);
  }

  it.each([
    { layout: 'subifds', tileSize: 256 },
    { layout: 'successive', tileSize: 240 },
  ] as const)(
    'reads the pyramid of a real slide written as $layout with $tileSize-px tiles, within 3/255 of the converted pyramid',
    async (spec) => {
      const file = path.join(dir, `${spec.layout}.ome.tif`);
      await writePyramidalOmeTiff(SMALL_SVS, file, spec);
      const opened = await open(`originals/${spec.layout}`, file);
      const plan = opened.plan!;
      expect(plan, 'plan').not.toBeNull();
      expect(plan.levels.map((level) => level.width)).toEqual([2220, 1110, 555, 278]);
      // Each level of the pyramid to be has a page of the original at its scale: no level is cut from a finer one.
      expect(plan.sources.map((source) => source.scale).slice(0, 4)).toEqual([1, 2, 4, 8]);
      expect(plan.sources[1]!.page.subIfd).toBe(spec.layout === 'subifds' ? 0 : undefined);

      const pyramid = await converted(`pyramids/${spec.layout}`, file);
      const tiles = createTileCache(0);
      for (const [level, x, y] of TILES) {
        const request = tileRequest(level, x, y);
        const early = await renderFromOriginal(opened.original, plan, request, tiles);
        const late = await renderImage(pyramid, request, tiles);
        const difference = await meanAbsoluteDifference(early.body, late.body);
        expect(difference, `level ${level} tile ${x},${y}`).toBeLessThanOrEqual(3);
      }
    },
    120_000,
  );

  it('cuts a reduced level stored as a SubIFD through libtiff when its tiles are not JPEG (deflate)', async () => {
    const file = path.join(dir, 'deflate.ome.tif');
    await writePyramidalOmeTiff(SMALL_SVS, file, { layout: 'subifds', tileSize: 256, compression: 'deflate' });
    const opened = await open('originals/deflate', file);
    const request = tileRequest(2, 0, 0);
    const fromSubIfd = await renderFromOriginal(opened.original, opened.plan!, request, createTileCache(0));
    // Level 2 is the SubIFD of scale 4 as stored, pixel for pixel (the main image, shrunk, would differ).
    const direct = await sharp(file, { subifd: 1 })
      .extract({ left: 0, top: 0, width: 512, height: 512 })
      .png()
      .toBuffer();
    expect(await meanAbsoluteDifference(fromSubIfd.body, direct)).toBe(0);
  });

  it('leaves a z-stack of channels (the real multi-channel-z-series) to its conversion', async () => {
    const opened = await open('originals/z-series', slidePath('multi-channel-z-series.ome.tif'));
    expect(opened.plan).toBeNull();
  });
});
