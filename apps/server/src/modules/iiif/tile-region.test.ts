import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTiffStructure, type TiffPage } from '../../imaging/index.ts';
import { writeJpegTiledTiff } from '../../imaging/tiled-tiff-writer.ts';
import { regionFromStoredTiles, type Rect } from './tile-region.ts';

const TILE = 64;
const [WIDTH, HEIGHT] = [300, 230];
let dir: string;
let file: string;
let page: TiffPage;
let storedTile: (index: number) => Promise<Buffer>;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tile-region-'));
  file = path.join(dir, 'pyramid.tif');
  const pixels = Buffer.alloc(WIDTH * HEIGHT * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 7 + Math.floor(i / 900) * 13) % 256;
  const source = sharp(pixels, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } });
  async function* tiles() {
    for (let top = 0; top < HEIGHT; top += TILE) {
      for (let left = 0; left < WIDTH; left += TILE) {
        const [width, height] = [Math.min(TILE, WIDTH - left), Math.min(TILE, HEIGHT - top)];
        yield await source
          .clone()
          .extract({ left, top, width, height })
          .extend({ right: TILE - width, bottom: TILE - height })
          .jpeg({ quality: 94, chromaSubsampling: '4:4:4' })
          .toBuffer();
      }
    }
  }
  await writeJpegTiledTiff(file, TILE, [{ width: WIDTH, height: HEIGHT, tiles: tiles() }]);
  const handle = await fs.open(file, 'r');
  [page] = (await readTiffStructure(handle).finally(() => handle.close())).pages as [TiffPage];
  storedTile = async (index) => {
    const bytes = Buffer.alloc(page.tileByteCounts[index]!);
    const reader = await fs.open(file, 'r');
    await reader.read(bytes, 0, bytes.length, page.tileOffsets[index]).finally(() => reader.close());
    return bytes;
  };
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

describe('regionFromStoredTiles', () => {
  it.each<[string, Rect, number]>([
    ['inside one tile', { left: 70, top: 5, width: 40, height: 50 }, 1],
    ['across four tiles', { left: 40, top: 50, width: 64, height: 64 }, 4],
    ['along the right and bottom edges', { left: 200, top: 150, width: 100, height: 80 }, 4],
    ['the whole page', { left: 0, top: 0, width: WIDTH, height: HEIGHT }, 20],
  ])('cuts %s with the pixels libvips reads from the TIFF', async (_name, rect, tiles) => {
    const region = await regionFromStoredTiles(page, rect, storedTile);
    if (tiles > 16) {
      expect(region).toBeNull();
      return;
    }
    expect(region?.tiles).toBe(tiles);
    const ours = await region!.image.raw().toBuffer({ resolveWithObject: true });
    const libvips = await sharp(file).extract(rect).raw().toBuffer();
    expect(ours.info).toMatchObject({ width: rect.width, height: rect.height, channels: 3 });
    expect(ours.data.equals(libvips)).toBe(true);
  });
});
