import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { folderTiles, GOOGLE_LAYOUT_ARGS, googleTilesToTiff } from './google-tiles.ts';
import { TILE_SUFFIX } from './pyramid.ts';
import { runTool } from './run-tool.ts';
import { sharp } from './sharp-setup.ts';
import { writeJpegTiledTiff } from './tiled-tiff-writer.ts';
import { readTiffStructure } from './tiff-structure.ts';

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tiled-tiff-'));
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

/** A picture with detail in every tile: a diagonal colour ramp with a grid of stripes. */
function pattern(width: number, height: number, channels: 1 | 3): Buffer {
  const pixels = Buffer.alloc(width * height * channels);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * channels;
      const stripe = x % 37 < 3 || y % 29 < 2 ? 60 : 0;
      pixels[at] = (x + y) % 256;
      if (channels === 3) {
        pixels[at + 1] = (200 - stripe) % 256;
        pixels[at + 2] = (x * 3) % 256;
      }
    }
  }
  return pixels;
}

async function* tilesOf(raw: Buffer, width: number, height: number, channels: 1 | 3, size: number) {
  for (let top = 0; top < height; top += size) {
    for (let left = 0; left < width; left += size) {
      const cut = sharp(raw, { raw: { width, height, channels } }).extract({
        left,
        top,
        width: Math.min(size, width - left),
        height: Math.min(size, height - top),
      });
      // Tiles are always full size: the edges padded, as dzsave does.
      const padded = cut.extend({
        right: size - Math.min(size, width - left),
        bottom: size - Math.min(size, height - top),
      });
      yield await (channels === 1 ? padded.toColourspace('b-w') : padded)
        .jpeg({ quality: 90, chromaSubsampling: '4:4:4' })
        .toBuffer();
    }
  }
}

// JPEG 90 of the sharp-edged test pattern; reading YCbCr as RGB, or tiles out of place, costs tens.
const JPEG_LOSS = 3;

async function meanAbsDiff(a: Buffer, b: Buffer): Promise<number> {
  expect(a.length).toBe(b.length);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

describe('writeJpegTiledTiff', () => {
  it('writes a BigTIFF pyramid of YCbCr JPEG tiles that libvips reads back as the tiles’ pixels', async () => {
    const [width, height] = [700, 600];
    const raw = pattern(width, height, 3);
    const half = await sharp(raw, { raw: { width, height, channels: 3 } })
      .resize(350, 300)
      .raw()
      .toBuffer();
    const target = path.join(dir, 'colour.tif');
    await writeJpegTiledTiff(target, 256, [
      { width, height, tiles: tilesOf(raw, width, height, 3, 256) },
      { width: 350, height: 300, tiles: tilesOf(half, 350, 300, 3, 256) },
    ]);

    const handle = await fs.open(target, 'r');
    const structure = await readTiffStructure(handle).finally(() => handle.close());
    expect(structure.bigTiff).toBe(true);
    expect(structure.pages.map((page) => [page.width, page.height, page.subfileType])).toEqual([
      [700, 600, 0],
      [350, 300, 1],
    ]);
    const [full, reduced] = structure.pages;
    expect(full).toMatchObject({
      compression: 7,
      photometric: 6,
      samplesPerPixel: 3,
      tileWidth: 256,
      jpegTables: null,
    });
    expect(full!.tileOffsets).toHaveLength(9);
    expect(reduced!.tileOffsets).toHaveLength(4);
    expect(full!.tags.get(530)?.value).toEqual([1, 1]);

    // Every stored tile is a complete JPEG, ready to send as it is.
    const tile = Buffer.alloc(full!.tileByteCounts[4]!);
    const reader = await fs.open(target, 'r');
    await reader.read(tile, 0, tile.length, full!.tileOffsets[4]).finally(() => reader.close());
    expect((await sharp(tile).metadata()).chromaSubsampling).toBe('4:4:4');

    for (const [page, source, w, h] of [
      [0, raw, width, height],
      [1, half, 350, 300],
    ] as const) {
      const decoded = await sharp(target, { page }).raw().toBuffer({ resolveWithObject: true });
      expect(decoded.info).toMatchObject({ width: w, height: h, channels: 3 });
      expect(await meanAbsDiff(decoded.data, source)).toBeLessThan(JPEG_LOSS);
    }
  });

  it('declares grey tiles as MinIsBlack with one sample', async () => {
    const raw = pattern(300, 200, 1);
    const target = path.join(dir, 'grey.tif');
    await writeJpegTiledTiff(target, 256, [{ width: 300, height: 200, tiles: tilesOf(raw, 300, 200, 1, 256) }]);
    const handle = await fs.open(target, 'r');
    const [page] = (await readTiffStructure(handle).finally(() => handle.close())).pages;
    expect(page).toMatchObject({ photometric: 1, samplesPerPixel: 1, bitsPerSample: [8] });
    expect((await sharp(target).metadata()).channels).toBe(1);
    const decoded = await sharp(target).extractChannel(0).raw().toBuffer();
    expect(await meanAbsDiff(decoded, raw)).toBeLessThan(JPEG_LOSS);
  });

  it('refuses a level whose tile count does not match its size', async () => {
    const raw = pattern(300, 200, 3);
    await expect(
      writeJpegTiledTiff(path.join(dir, 'short.tif'), 256, [
        { width: 600, height: 200, tiles: tilesOf(raw, 300, 200, 3, 256) },
      ]),
    ).rejects.toThrow(/2 tiles, expected 3/);
  });
});

describe('googleTilesToTiff', () => {
  it('packs `vips dzsave --layout google` of an odd-sized image into levels rounded up, as dzsave shrinks', async () => {
    const [width, height] = [1301, 1029];
    const source = path.join(dir, 'odd.png');
    await sharp(pattern(width, height, 3), { raw: { width, height, channels: 3 } })
      .png()
      .toFile(source);
    const folder = path.join(dir, 'odd-tiles');
    const result = await runTool(
      'vips',
      ['dzsave', source, folder, ...GOOGLE_LAYOUT_ARGS, '--tile-size', '512', '--suffix', TILE_SUFFIX],
      { timeoutMs: 60_000 },
    );
    expect(result.exitCode, result.stderr).toBe(0);
    const target = path.join(dir, 'odd.tif');
    await googleTilesToTiff(folderTiles(folder), { width, height }, 512, target);
    const handle = await fs.open(target, 'r');
    const pages = (await readTiffStructure(handle).finally(() => handle.close())).pages;
    expect(pages.map((page) => `${page.width}×${page.height}`)).toEqual(['1301×1029', '651×515', '326×258']);
    const decoded = await sharp(target, { page: 0 }).raw().toBuffer();
    expect(await meanAbsDiff(decoded, pattern(width, height, 3))).toBeLessThan(JPEG_LOSS);
  });

  it('refuses a folder without levels', async () => {
    const empty = path.join(dir, 'empty');
    await fs.mkdir(empty);
    await expect(
      googleTilesToTiff(folderTiles(empty), { width: 10, height: 10 }, 512, path.join(dir, 'x.tif')),
    ).rejects.toThrow(/zoom levels/);
  });
});
