import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTiffStructure, type TiffPage } from '../../imaging/index.ts';
import { runTool } from '../../imaging/run-tool.ts';
import { writeJpegTiledTiff } from '../../imaging/tiled-tiff-writer.ts';
import { regionFromStoredTiles, type Rect } from './tile-region.ts';

const TILE = 64;
const [WIDTH, HEIGHT] = [300, 230];
let dir: string;

interface Pyramid {
  file: string;
  page: TiffPage;
  storedTile: (index: number) => Promise<Buffer>;
}
const pyramids = new Map<string, Pyramid>();

/** Each tile by sharp, or by the libvips command line with a restart marker every 2 blocks. */
const encoders: Record<string, (tile: Sharp, name: string) => Promise<Buffer>> = {
  'without restart markers': (tile) => tile.jpeg({ quality: 94, chromaSubsampling: '4:4:4' }).toBuffer(),
  'with restart markers': async (tile, name) => {
    const [source, target] = [path.join(dir, `${name}.png`), path.join(dir, `${name}.jpg`)];
    await tile.png().toFile(source);
    const args = ['jpegsave', source, target, '--Q', '94', '--subsample-mode', 'off', '--restart-interval', '2'];
    const result = await runTool('vips', args, { timeoutMs: 30_000 });
    if (result.exitCode !== 0) throw new Error(result.stderr);
    return fs.readFile(target);
  },
};

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tile-region-'));
  const pixels = Buffer.alloc(WIDTH * HEIGHT * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 7 + Math.floor(i / 900) * 13) % 256;
  const source = sharp(pixels, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } });
  for (const [kind, encode] of Object.entries(encoders)) {
    const file = path.join(dir, `${kind.replaceAll(' ', '-')}.tif`);
    async function* tiles() {
      for (let top = 0; top < HEIGHT; top += TILE) {
        for (let left = 0; left < WIDTH; left += TILE) {
          const [width, height] = [Math.min(TILE, WIDTH - left), Math.min(TILE, HEIGHT - top)];
          const cut = source.clone().extract({ left, top, width, height });
          yield await encode(cut.extend({ right: TILE - width, bottom: TILE - height }), `${kind}-${left}-${top}`);
        }
      }
    }
    await writeJpegTiledTiff(file, TILE, [{ width: WIDTH, height: HEIGHT, tiles: tiles() }]);
    const handle = await fs.open(file, 'r');
    const [page] = (await readTiffStructure(handle).finally(() => handle.close())).pages as [TiffPage];
    const storedTile = async (index: number) => {
      const bytes = Buffer.alloc(page.tileByteCounts[index]!);
      const reader = await fs.open(file, 'r');
      await reader.read(bytes, 0, bytes.length, page.tileOffsets[index]).finally(() => reader.close());
      return bytes;
    };
    pyramids.set(kind, { file, page, storedTile });
  }
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

describe.each(Object.keys(encoders))('regionFromStoredTiles, tiles %s', (kind) => {
  it.each<[string, Rect, number]>([
    ['inside one tile', { left: 70, top: 5, width: 40, height: 50 }, 1],
    ['across four tiles', { left: 40, top: 50, width: 64, height: 64 }, 4],
    ['along the right and bottom edges', { left: 200, top: 150, width: 100, height: 80 }, 4],
    ['the whole page', { left: 0, top: 0, width: WIDTH, height: HEIGHT }, 20],
  ])('cuts %s with the pixels libvips reads from the TIFF', async (_name, rect, tiles) => {
    const { file, page, storedTile } = pyramids.get(kind)!;
    // 20 tiles of 64 px are within the pixels one tile may decode, so even the whole page is cut from them.
    const region = await regionFromStoredTiles(page, rect, storedTile);
    expect(region?.tiles).toBe(tiles);
    const ours = await region!.image.raw().toBuffer({ resolveWithObject: true });
    const libvips = await sharp(file).extract(rect).raw().toBuffer();
    expect(ours.info).toMatchObject({ width: rect.width, height: rect.height, channels: 3 });
    expect(ours.data.equals(libvips)).toBe(true);
  });
});
