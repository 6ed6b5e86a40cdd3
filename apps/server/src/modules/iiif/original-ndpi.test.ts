import { execFileSync } from 'node:child_process';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slidePath } from '#test/testdata.ts';
import { declaredScale } from '../../imaging/index.ts';
import { writeNdpi } from '../../imaging/ndpi-writer.test-support.ts';
import { FilesystemBlobStore } from '../../storage/filesystem-blob-store.ts';
import { parseImageRequest } from './iiif-params.ts';
import { pyramidLevels } from './original-plan.ts';
import { renderFromOriginal } from './original-render.ts';
import { createOriginalSource, type OriginalSource } from './original-source.ts';
import { createPyramidCache } from './pyramid-cache.ts';
import { createTileCache } from './tile-cache.ts';

/** Levels 1, 1/3 and 1/9 of the test slide, in restart segments of 744 and 248 px, and a second focal plane. */
const LEVELS = [
  { width: 2232, height: 2968, restartInterval: 93 },
  { width: 744, height: 992, restartInterval: 31 },
  { width: 744, height: 992, restartInterval: 31, zOffset: 2000 },
  { width: 248, height: 328, restartInterval: 31 },
];

/** The system's vips, not the one sharp bundles (whose VIPSHOME hides the OpenSlide module). */
function systemVips(args: string[]): void {
  const env = { ...process.env };
  delete env.VIPSHOME;
  execFileSync('vips', args, { env });
}

describe('an NDPI original viewed before its conversion', () => {
  let dir: string;
  let file: string;
  let originals: OriginalSource;
  let blobs: FilesystemBlobStore;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'original-ndpi-'));
    file = path.join(dir, 'slide.ndpi');
    await writeNdpi(file, { source: slidePath('CMU-1-Small-Region.svs'), levels: LEVELS });
    blobs = new FilesystemBlobStore(path.join(dir, 'blobs'));
    originals = createOriginalSource(createPyramidCache({ blobs, cacheDir: path.join(dir, 'cache') }));
    await blobs.put('slide', createReadStream(file));
  }, 60_000);
  afterAll(async () => {
    await originals.closeAll();
    await fs.rm(dir, { recursive: true, force: true });
  });

  /** OpenSlide's reading of the whole slide at full resolution, shrunk as the pyramid's levels are (block means). */
  async function openSlideLevel(scale: number): Promise<Sharp> {
    const full = path.join(dir, 'full.v');
    await fs.access(full).catch(() => systemVips(['openslideload', file, full]));
    const shrunk = path.join(dir, `shrunk-${scale}.v`);
    if (scale > 1)
      await fs.access(shrunk).catch(() => systemVips(['shrink', full, shrunk, String(scale), String(scale)]));
    return sharp(scale > 1 ? shrunk : full).removeAlpha();
  }

  it('plans the pyramid to come from the levels of focal plane 0, each restart segment a tile', async () => {
    const { original, plan } = await originals.open('slide');
    // The viewer's magnification and scale bar before the hand-over, as the conversion will record them.
    expect(declaredScale(original.pages[0]!)).toEqual({
      resolution: { x: 20_000, y: 20_000, unit: 'dpc' },
      magnification: 20,
    });
    expect(plan).not.toBeNull();
    expect(plan!.levels).toEqual(pyramidLevels(2232, 2968));
    expect(plan!.sources.map(({ page, scale }) => [page.width, page.tileWidth, page.tileHeight, scale])).toEqual([
      [2232, 744, 8, 1],
      [744, 248, 8, 3],
      [248, 248, 8, 9],
    ]);
  });

  it.each([
    [0, 1, 2],
    [1, 0, 1],
    [2, 1, 0],
    [1, 1, 0],
    [2, 0, 1],
    [0, 4, 5],
  ])(
    'cuts the level-%i tile (%i, %i) from only the restart segments under it, within 3/255 of OpenSlide',
    async (level, x, y) => {
      const { original, plan } = await originals.open('slide');
      const scale = 2 ** level;
      const region = { x: x * 512 * scale, y: y * 512 * scale };
      const width = Math.min(512 * scale, 2232 - region.x);
      const height = Math.min(512 * scale, 2968 - region.y);
      const request = parseImageRequest(
        {
          region: `${region.x},${region.y},${width},${height}`,
          size: `${Math.ceil(width / scale)},`,
          rotation: '0',
          qualityFormat: 'default.png',
        },
        plan!.levels[0]!,
      );
      // Every lookup misses a cache of 0 bytes: it counts the restart segments read.
      let segments = 0;
      const tiles = createTileCache(0, () => segments++);
      const rendered = await renderFromOriginal(original, plan!, request, tiles);
      const across = Math.ceil((region.x + width) / 744) - Math.floor(region.x / 744);
      expect(segments).toBe(across * Math.ceil(height / 8));
      const { data, info } = await sharp(rendered.body).raw().toBuffer({ resolveWithObject: true });
      expect([info.width, info.height]).toEqual([Math.ceil(width / scale), Math.ceil(height / scale)]);
      const expected = await (
        await openSlideLevel(scale)
      )
        .extract({ left: region.x / scale, top: region.y / scale, width: info.width, height: info.height })
        .raw()
        .toBuffer();
      let sum = 0;
      for (let i = 0; i < data.length; i++) sum += Math.abs(data[i]! - expected[i]!);
      expect(sum / data.length).toBeLessThanOrEqual(3);
    },
  );
});
