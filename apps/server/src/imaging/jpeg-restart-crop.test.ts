import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restartLayout, stitchJpegBlocks, type RestartTile } from './jpeg-restart-crop.ts';
import { RESTART_INTERVAL } from './pyramid.ts';
import { runTool } from './run-tool.ts';
import { sharp } from './sharp-setup.ts';

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'restart-crop-'));
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

/** Busy pixels: stripes, ramps and noise, so every block codes to different bytes. */
function busy(width: number, height: number, channels: 1 | 3): Buffer {
  const pixels = Buffer.alloc(width * height * channels);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 31 + ((i * i) % 97) + Math.floor(i / 777) * 11) % 256;
  return pixels;
}

/** A JPEG written by the libvips command line, which (unlike sharp) can write restart markers. */
async function vipsJpeg(
  name: string,
  width: number,
  height: number,
  channels: 1 | 3,
  options: string[],
  pixels = busy(width, height, channels),
) {
  const source = path.join(dir, `${name}.png`);
  const target = path.join(dir, `${name}.jpg`);
  await sharp(pixels, { raw: { width, height, channels } }).png().toFile(source);
  const result = await runTool(
    'vips',
    ['jpegsave', source, target, ...(options.includes('--Q') ? [] : ['--Q', '94']), ...options],
    { timeoutMs: 30_000 },
  );
  expect(result.exitCode, result.stderr).toBe(0);
  return fs.readFile(target);
}

const fullChroma = ['--subsample-mode', 'off', '--restart-interval', String(RESTART_INTERVAL)];

describe('restartLayout', () => {
  it('finds one segment per 8 blocks of each row of blocks', async () => {
    const jpeg = await vipsJpeg('layout', 512, 200, 3, fullChroma);
    const layout = restartLayout(jpeg);
    expect(layout).toMatchObject({ width: 512, height: 200, segmentWidth: 64, blockHeight: 8, segmentsAcross: 8 });
    expect(layout!.starts).toHaveLength(8 * 25);
    expect(layout!.ends.at(-1)).toBe(jpeg.length - 2);
  });

  it.each([
    ['without restart markers', ['--subsample-mode', 'off']],
    ['with halved chroma', ['--subsample-mode', 'on', '--restart-interval', '8']],
    ['progressive', [...fullChroma, '--interlace']],
    ['whose segments straddle rows of blocks', ['--subsample-mode', 'off', '--restart-interval', '3']],
  ])('has none for a JPEG %s', async (name, options) => {
    expect(restartLayout(await vipsJpeg(name.replaceAll(' ', '-'), 256, 64, 3, options))).toBeNull();
  });

  it('has none for what is not a JPEG, or is cut short', async () => {
    const jpeg = await vipsJpeg('short', 256, 64, 3, fullChroma);
    expect(restartLayout(Buffer.from('not a jpeg'))).toBeNull();
    expect(restartLayout(jpeg.subarray(0, jpeg.length - 100))).toBeNull();
  });
});

async function restartTile(name: string, width: number, height: number, channels: 1 | 3, options = fullChroma) {
  const jpeg = await vipsJpeg(name, width, height, channels, options);
  const layout = restartLayout(jpeg);
  expect(layout).not.toBeNull();
  return { jpeg, layout: layout! };
}

type Rect = { left: number; top: number; width: number; height: number };

describe('stitchJpegBlocks', () => {
  it.each<[string, number, number, 1 | 3, Rect]>([
    ['a corner across the block grid', 512, 512, 3, { left: 100, top: 100, width: 412, height: 412 }],
    ['a small piece inside one segment', 512, 512, 3, { left: 70, top: 9, width: 20, height: 5 }],
    ['the whole image', 512, 512, 3, { left: 0, top: 0, width: 512, height: 512 }],
    [
      'the right and bottom edges of an image ending inside a segment',
      505,
      301,
      3,
      { left: 430, top: 290, width: 75, height: 11 },
    ],
    ['a grey image', 512, 256, 1, { left: 1, top: 250, width: 300, height: 6 }],
  ])('cuts %s of one JPEG to the same pixels as the whole', async (name, width, height, channels, rect) => {
    const tile = await restartTile(name.replaceAll(' ', '-'), width, height, channels);
    const crop = stitchJpegBlocks([[tile]], rect)!;
    const whole = await sharp(tile.jpeg).extract(rect).raw().toBuffer();
    const cut = await sharp(crop.jpeg)
      .extract({ ...rect, left: crop.left, top: crop.top })
      .raw()
      .toBuffer();
    expect(cut.equals(whole)).toBe(true);
    if (rect.width < width / 2) expect(crop.jpeg.length).toBeLessThan(tile.jpeg.length / 2);
  });

  it('joins a rectangle across four tiles into one JPEG with the pixels of the tiles', async () => {
    const [width, height] = [256, 128];
    const grid: RestartTile[][] = [];
    for (let row = 0; row < 2; row++) {
      grid.push([]);
      for (let column = 0; column < 2; column++)
        grid[row]!.push(await restartTile(`grid-${row}-${column}`, width, height, 3));
    }
    const rect = { left: 70, top: 100, width: 300, height: 90 };
    const crop = stitchJpegBlocks(grid, rect)!;
    const cut = await sharp(crop.jpeg)
      .extract({ ...rect, left: crop.left, top: crop.top })
      .raw()
      .toBuffer();
    const tiles = await Promise.all(grid.flat().map((tile) => sharp(tile.jpeg).raw().toBuffer()));
    for (let y = 0; y < rect.height; y++) {
      for (let x = 0; x < rect.width; x++) {
        const [gx, gy] = [rect.left + x, rect.top + y];
        const tile = tiles[Math.floor(gy / height) * 2 + Math.floor(gx / width)]!;
        const at = ((gy % height) * width + (gx % width)) * 3;
        expect(cut.subarray((y * rect.width + x) * 3, (y * rect.width + x) * 3 + 3)).toEqual(tile.subarray(at, at + 3));
      }
    }
  });

  it('refuses tiles coded with different tables', async () => {
    const [a, b] = [
      await restartTile('q94', 128, 64, 3),
      await restartTile('q80', 128, 64, 3, [...fullChroma, '--Q', '80']),
    ];
    expect(stitchJpegBlocks([[a, b]], { left: 0, top: 0, width: 256, height: 64 })).toBeNull();
    expect(stitchJpegBlocks([[a], [b]], { left: 0, top: 0, width: 128, height: 128 })).toBeNull();
  });
});
