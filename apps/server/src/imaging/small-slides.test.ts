import { execFileSync } from 'node:child_process';
import { open } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { convertImage } from './index.ts';
import { writeJpegTiledTiff } from './tiled-tiff-writer.ts';
import { expectJpegPyramid, expectThumbnail, tempDir } from './pyramid.test-support.ts';
import { readTiffStructure } from './tiff-structure.ts';
import { writeTinyTiledTiff } from './tiny-tiff.test-support.ts';

const APERIO = 'Aperio Image Library v12.0.15 \n16x16 [0,0 16x16] (64x64) JPEG/RGB Q=90|AppMag = 20|MPP = 0.5';

/** Converts `file` and checks the result is a readable pyramid of the expected size. */
async function expectConverts(file: string, width: number, height: number) {
  const workDir = await tempDir('small-slide-');
  const converted = await convertImage({ sourcePath: file, workDir, timeoutMs: 60_000 });
  expect({ width: converted.width, height: converted.height }).toEqual({ width, height });
  await expectJpegPyramid(converted.layers[0]!.pyramidPath, width, height);
  // Its first tile is a whole JPEG the tile server can send or cut.
  const handle = await open(converted.layers[0]!.pyramidPath, 'r');
  const [base] = (await readTiffStructure(handle)).pages;
  const tile = Buffer.alloc(base!.tileByteCounts[0]!);
  await handle.read(tile, 0, tile.length, base!.tileOffsets[0]).finally(() => handle.close());
  expect(await sharp(tile).metadata()).toMatchObject({ format: 'jpeg' });
  await expectThumbnail(converted.thumbnailPath);
  return converted;
}

/** What OpenSlide says the file is; a file OpenSlide opens must convert. */
const openSlideSays = (file: string) => execFileSync('openslide-show-properties', [file], { encoding: 'utf8' });

describe('small and odd tiled slides that OpenSlide opens', () => {
  it('converts an Aperio SVS whose 16×16 image is stored as one 64×64 JPEG tile', async () => {
    const file = path.join(await tempDir('tiny-svs-'), 'tiny.svs');
    await writeTinyTiledTiff(file, { width: 16, height: 16, tile: 64, description: APERIO });
    expect(openSlideSays(file)).toContain("openslide.vendor: 'aperio'");
    const converted = await expectConverts(file, 16, 16);
    expect(converted.magnification).toBe(20);
  });

  it.each([
    [16, 16, 64],
    [1, 300, 64],
    [300, 1, 64],
    [70, 5, 16],
  ])('converts a generic tiled TIFF of %i×%i px in %i-px tiles', async (width, height, tile) => {
    const file = path.join(await tempDir('tiny-tiff-'), 'tiny.tif');
    await writeTinyTiledTiff(file, { width, height, tile });
    expect(openSlideSays(file)).toContain("openslide.vendor: 'generic-tiff'");
    await expectConverts(file, width, height);
  });

  it('converts a pyramid whose levels are 1, 3 and 9 times smaller (not powers of two)', async () => {
    const file = path.join(await tempDir('odd-levels-'), 'odd.tif');
    const tile = 64;
    const levels = [
      [900, 600],
      [300, 200],
      [100, 67],
    ].map(([width, height]) => ({
      width: width!,
      height: height!,
      tiles: (async function* () {
        const count = Math.ceil(width! / tile) * Math.ceil(height! / tile);
        for (let i = 0; i < count; i++) {
          yield await sharp({ create: { width: tile, height: tile, channels: 3, background: '#b05a90' } })
            .jpeg()
            .toBuffer();
        }
      })(),
    }));
    await writeJpegTiledTiff(file, tile, levels);
    expect(openSlideSays(file)).toMatch(/openslide.level\[1\].downsample: '3/);
    await expectConverts(file, 900, 600);
  });
});
