import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMALL_SVS } from '#test/uploads.ts';
import { writeJpegTiledTiff } from '../../imaging/tiled-tiff-writer.ts';
import { FilesystemBlobStore } from '../../storage/filesystem-blob-store.ts';
import { boxShrink, type RawImage } from './box-shrink.ts';
import { parseImageRequest } from './iiif-params.ts';
import { renderFromOriginal } from './original-render.ts';
import { createOriginalSource, type OriginalSource } from './original-source.ts';
import { createPyramidCache } from './pyramid-cache.ts';
import { createTileCache } from './tile-cache.ts';

/** 1100 × 900 px of real tissue: three levels (1100, 550, 275 wide) in the pyramid to be. */
const WIDTH = 1100;
const HEIGHT = 900;

describe('tiles cut from an original', () => {
  let dir: string;
  let blobs: FilesystemBlobStore;
  let originals: OriginalSource;
  let tissue: RawImage;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'original-render-'));
    blobs = new FilesystemBlobStore(path.join(dir, 'blobs'));
    originals = createOriginalSource(createPyramidCache({ blobs, cacheDir: path.join(dir, 'cache') }));
    const { data, info } = await sharp(SMALL_SVS, { page: 0 })
      .extract({ left: 300, top: 500, width: WIDTH, height: HEIGHT })
      .raw()
      .toBuffer({ resolveWithObject: true });
    tissue = { data, width: info.width, height: info.height, channels: info.channels };
  });
  afterAll(async () => {
    await originals.closeAll();
    await fs.rm(dir, { recursive: true, force: true });
  });

  const raw = (image: RawImage) =>
    sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } });

  async function store(key: string, file: string) {
    await blobs.put(key, createReadStream(file));
    return originals.open(key);
  }

  /** An original of JPEG tiles of `tileSize` px, one page per scale (the tissue shrunk by block means or by cubic). */
  async function jpegOriginal(key: string, tileSize: number, scales: number[]) {
    const file = path.join(dir, `${key}.tif`);
    const levels = await Promise.all(
      scales.map(async (scale) => {
        const width = Math.ceil(WIDTH / scale);
        const height = Math.ceil(HEIGHT / scale);
        const level = Number.isInteger(scale)
          ? await raw(boxShrink(tissue, scale)).raw().toBuffer()
          : await raw(tissue).resize(width, height, { fit: 'fill' }).raw().toBuffer();
        const tiles: Buffer[] = [];
        for (let top = 0; top < height; top += tileSize) {
          for (let left = 0; left < width; left += tileSize) {
            const cut = {
              left,
              top,
              width: Math.min(tileSize, width - left),
              height: Math.min(tileSize, height - top),
            };
            const extend = { right: tileSize - cut.width, bottom: tileSize - cut.height, background: '#fff' };
            const piece = await sharp(level, { raw: { width, height, channels: 3 } })
              .extract(cut)
              .raw()
              .toBuffer({ resolveWithObject: true });
            tiles.push(
              await sharp(piece.data, { raw: piece.info })
                .extend(extend)
                .jpeg({ quality: 95, chromaSubsampling: '4:4:4' })
                .toBuffer(),
            );
          }
        }
        return {
          width,
          height,
          tiles: (async function* () {
            yield* tiles;
          })(),
        };
      }),
    );
    await writeJpegTiledTiff(file, tileSize, levels);
    return store(key, file);
  }

  /** A IIIF tile request as OpenSeadragon makes it for `level`: region in full-resolution pixels, size rounded up. */
  async function tile(
    opened: Awaited<ReturnType<OriginalSource['open']>>,
    level: number,
    x: number,
    y: number,
    // PNG by default: what is measured is then the cut, not a last JPEG encoding.
    format = 'png',
  ) {
    const scale = 2 ** level;
    const region = { x: x * 512 * scale, y: y * 512 * scale };
    const width = Math.min(512 * scale, WIDTH - region.x);
    const height = Math.min(512 * scale, HEIGHT - region.y);
    const request = parseImageRequest(
      {
        region: `${region.x},${region.y},${width},${height}`,
        size: `${Math.ceil(width / scale)},`,
        rotation: '0',
        qualityFormat: `default.${format}`,
      },
      opened.plan!.levels[0]!,
    );
    const rendered = await renderFromOriginal(opened.original, opened.plan!, request, createTileCache(0));
    const { data, info } = await sharp(rendered.body).raw().toBuffer({ resolveWithObject: true });
    const expected = await raw(boxShrink(tissue, scale))
      .extract({ left: region.x / scale, top: region.y / scale, width: info.width, height: info.height })
      .raw()
      .toBuffer();
    let sum = 0;
    for (let i = 0; i < data.length; i++) sum += Math.abs(data[i]! - expected[i]!);
    return { difference: sum / data.length, width: info.width, height: info.height, passThrough: rendered.passThrough };
  }

  it('composes 512 tiles from a 240-px grid (interior, right and bottom edge) and shrinks by block means where levels are missing', async () => {
    const opened = await jpegOriginal('grid-240', 240, [1]);
    expect(opened.plan?.sources.map((source) => source.scale)).toEqual([1]);
    const interior = await tile(opened, 0, 0, 0);
    expect(interior).toMatchObject({ width: 512, height: 512, passThrough: false });
    expect(interior.difference).toBeLessThan(3);
    const corner = await tile(opened, 0, 2, 1);
    expect([corner.width, corner.height]).toEqual([WIDTH - 1024, HEIGHT - 512]);
    expect(corner.difference).toBeLessThan(3);
    for (const level of [1, 2]) {
      const shrunk = await tile(opened, level, 0, 0);
      expect([shrunk.width, shrunk.height]).toEqual(
        [Math.ceil(WIDTH / 2 ** level), Math.ceil(HEIGHT / 2 ** level)].map((size) => Math.min(512, size)),
      );
      expect(shrunk.difference, `level ${level}`).toBeLessThan(3);
    }
  });

  it('prefers a whole-factor page over one that is no power of two (scale 3), and cuts from the latter where it must', async () => {
    const opened = await jpegOriginal('thirds', 240, [1, WIDTH / Math.ceil(WIDTH / 3)]);
    expect(opened.plan?.sources).toHaveLength(2);
    const level2 = await tile(opened, 2, 0, 0);
    expect([level2.width, level2.height]).toEqual([275, 225]);
    expect(level2.difference).toBeLessThan(1.5);
    // Only the scale-3 page (as for a slide too large to cut this level from full resolution): resampled to place.
    const thirdsOnly = { original: opened.original, plan: { ...opened.plan!, sources: opened.plan!.sources.slice(1) } };
    const resampled = await tile(thirdsOnly, 2, 0, 0);
    expect([resampled.width, resampled.height]).toEqual([275, 225]);
    expect(resampled.difference).toBeLessThan(8);
  });

  it('reads deflate tiles (lossless) through libtiff', async () => {
    const file = path.join(dir, 'deflate.tif');
    await raw(tissue).tiff({ tile: true, tileWidth: 256, tileHeight: 256, compression: 'deflate' }).toFile(file);
    const opened = await store('deflate', file);
    expect(opened.plan?.sources[0]?.page.compression).toBe(8);
    expect((await tile(opened, 0, 1, 1)).difference).toBe(0);
    expect((await tile(opened, 1, 0, 0)).difference).toBeLessThan(0.01);
  });

  it('passes stored tiles through when the original is shaped like our pyramid', async () => {
    const opened = await jpegOriginal('ours', 512, [1, 2, 4]);
    expect(opened.plan?.pyramidPages).toHaveLength(3);
    const stored = await tile(opened, 0, 0, 0, 'jpg');
    expect(stored.passThrough).toBe(true);
    expect(stored.difference).toBeLessThan(1.5);
  });
});
