import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Image } from '@pathology/contract';
import pino from 'pino';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { factories } from '#test/factories.ts';
import { useTestApp } from '#test/test-app.ts';
import { dicomizerSlide, tiffToDicomSlide, zipFiles } from '../../imaging/dicom-read.test-support.ts';
import { pyramidLevels } from './original-plan.ts';
import { convertImageJob } from '../images/image-conversion.job.ts';

/**
 * The number (from 1) of the frame at pixel (column, row) of a level, as dcmtk reads the file: in a TILED_SPARSE
 * instance dcmdump lists each frame's PlanePositionSlide in frame order; a TILED_FULL one holds its frames row by row.
 */
function frameNumber(file: string, column: number, row: number): number {
  const dump = execFileSync('dcmdump', ['-q', file], { encoding: 'utf8', maxBuffer: 64 * 1024 ** 2 });
  const values = (tag: string, vr: string) =>
    [...dump.matchAll(new RegExp(`\\(${tag}\\) ${vr} (-?\\d+)`, 'g'))].map((match) => Number(match[1]));
  if (dump.includes('[TILED_FULL]')) {
    const [width] = values('0028,0011', 'US');
    const [height] = values('0028,0010', 'US');
    const [totalColumns] = values('0048,0006', 'UL');
    return (row / height!) * Math.ceil(totalColumns! / width!) + column / width! + 1;
  }
  const columns = values('0048,021e', 'SL');
  const rows = values('0048,021f', 'SL');
  const frame = columns.findIndex((value, index) => value === column + 1 && rows[index] === row + 1);
  expect(frame).toBeGreaterThanOrEqual(0);
  return frame + 1;
}

/** A frame's bytes as dcmtk reads them from the file: dcmdump +W writes each frame to `<file>.<n>.raw`. */
async function frameFromFile(file: string, column: number, row: number, dir: string): Promise<Buffer> {
  execFileSync('dcmdump', ['-q', '+W', dir, file], { stdio: 'ignore', maxBuffer: 64 * 1024 ** 2 });
  return fs.readFile(path.join(dir, `${path.basename(file)}.${frameNumber(file, column, row)}.raw`));
}

/** The frame at pixel (column, row) decoded by dcmtk, which is told its colours by the file's photometric interpretation. */
function frameDecodedByDcmtk(file: string, column: number, row: number, target: string): Promise<Buffer> {
  execFileSync('dcmj2pnm', ['+F', String(frameNumber(file, column, row)), '+on', file, target], { stdio: 'ignore' });
  return fs.readFile(target);
}

describe('viewing a DICOM slide from its frames while its pyramid builds', () => {
  const t = useTestApp();
  let caseId: string;
  let dir: string;

  beforeAll(async () => {
    const make = factories(t.database.db);
    const group = await make.organization();
    caseId = await make.case({ ownerOrganizationId: group });
    await make.join(await make.account({ subject: 'member' }), group, 'member');
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'early-dicom-'));
  });
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));

  const get = async (url: string) => t.app.inject({ method: 'GET', url, headers: await t.auth('member') });
  const image = async (id: string) => (await get(`/api/v1/images/${id}`)).json<Image>();

  async function uploadZip(name: string, files: string[]): Promise<string> {
    const zip = await zipFiles(path.join(dir, `${name}.zip`), files);
    const query = new URLSearchParams({ caseId, filename: `${name}.zip` }).toString();
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/v1/images?${query}`,
      headers: { ...(await t.auth('member')), 'content-type': 'application/octet-stream' },
      payload: await fs.readFile(zip),
    });
    expect(response.statusCode).toBe(201);
    return response.json<{ id: string }>().id;
  }

  async function convert(imageId: string) {
    await convertImageJob(
      {
        db: t.database.db,
        blobs: t.blobs,
        log: pino({ level: 'silent' }),
        timeoutSeconds: 300,
        scratchDir: path.join(t.dataDir, 'tmp'),
      },
      { imageId, retryCount: 0, retryLimit: 0 },
    );
  }

  async function meanAbsoluteDifference(a: Buffer, b: Buffer): Promise<number> {
    const [left, right] = await Promise.all(
      [a, b].map((body) => sharp(body).removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true })),
    );
    expect([left!.info.width, left!.info.height]).toEqual([right!.info.width, right!.info.height]);
    let sum = 0;
    for (let i = 0; i < left!.data.length; i++) sum += Math.abs(left!.data[i]! - right!.data[i]!);
    return sum / left!.data.length;
  }

  /** Tiles as OpenSeadragon asks for them: an inner and an edge tile of level 0, a tile of level 1, the whole at the top. */
  function tilesOf(width: number, height: number): string[] {
    const levels = pyramidLevels(width, height);
    const top = levels.at(-1)!;
    const edgeX = Math.floor((width - 1) / 512) * 512;
    const edgeY = Math.floor((height - 1) / 512) * 512;
    const tiles = [`0,0,512,512/512,`, `${edgeX},${edgeY},${width - edgeX},${height - edgeY}/${width - edgeX},`];
    if (levels.length > 2) tiles.push(`0,0,1024,1024/512,`);
    return [...tiles, `0,0,${width},${height}/${top.width},`];
  }

  /** Uploads the slide, fetches `tiles` before its conversion, converts it, and compares them with the pyramid's. */
  async function viewedBeforeAndAfter(
    name: string,
    files: string[],
    size: { width: number; height: number },
    alsoBefore?: (layerId: string) => Promise<void>,
  ) {
    const imageId = await uploadZip(name, files);
    const before = await image(imageId);
    expect(before).toMatchObject({ status: 'uploaded', viewable: true, conversionProgress: 0, dimensions: size });
    const layerId = before.tileSource!.url.split('/')[3]!;
    // The thumbnail too, cut from the frames before the conversion has made one.
    const thumbnail = await get(`/api/v1/images/${imageId}/data?type=SMALL`);
    expect([thumbnail.statusCode, thumbnail.headers['cache-control']]).toEqual([200, 'private, max-age=30']);
    await alsoBefore?.(layerId);
    const info = await get(`/iiif/2/${layerId}/info.json`);
    expect(info.statusCode).toBe(200);
    const scaleFactors = pyramidLevels(size.width, size.height).map((_, level) => 2 ** level);
    expect(info.json()).toMatchObject({ ...size, tiles: [{ width: 512, scaleFactors }] });

    const tiles = tilesOf(size.width, size.height);
    const fromFrames = new Map<string, Buffer>();
    for (const tile of tiles) {
      const response = await get(`/iiif/2/${layerId}/${tile}/0/default.jpg`);
      expect([response.statusCode, response.headers.etag], tile).toEqual([200, expect.stringMatching(/^"original:/)]);
      fromFrames.set(tile, response.rawPayload);
    }

    await convert(imageId);
    // The scale shown from the first tile on is the one the conversion records.
    expect(await image(imageId)).toMatchObject({
      status: 'available',
      tileSource: { url: before.tileSource!.url },
      magnification: before.magnification,
      resolution: before.resolution,
    });
    expect((await get(`/iiif/2/${layerId}/info.json`)).json()).toEqual(info.json());
    await vi.waitFor(
      async () =>
        expect((await get(`/iiif/2/${layerId}/${tiles[0]}/0/default.jpg`)).headers['cache-control']).toMatch(
          /immutable/,
        ),
      { timeout: 5_000, interval: 200 },
    );
    for (const tile of tiles) {
      const response = await get(`/iiif/2/${layerId}/${tile}/0/default.jpg`);
      expect(response.statusCode, tile).toBe(200);
      expect(await meanAbsoluteDifference(fromFrames.get(tile)!, response.rawPayload), tile).toBeLessThanOrEqual(3);
    }
    return { magnification: before.magnification, layerId };
  }

  /**
   * Views the slide before and after its conversion: level 0's tile at pixel (512, 1024), one whole 512-px frame
   * of the largest instance, is that frame as it is both times (the conversion copied it into the pyramid).
   */
  async function frameSentAsItIs(
    name: string,
    files: string[],
    alsoBefore: (layerId: string, tile: Buffer, frame: Buffer) => Promise<void>,
  ) {
    const frame = await frameFromFile(files[0]!, 512, 1024, await fs.mkdtemp(path.join(dir, 'frames-')));
    const url = (layerId: string) => `/iiif/2/${layerId}/512,1024,512,512/512,/0/default.jpg`;
    const { layerId } = await viewedBeforeAndAfter(name, files, { width: 2220, height: 2967 }, async (layerId) => {
      const tile = await get(url(layerId));
      expect([tile.statusCode, tile.headers['content-type']]).toEqual([200, 'image/jpeg']);
      expect(tile.rawPayload.equals(frame)).toBe(true);
      await alsoBefore(layerId, tile.rawPayload, frame);
    });
    const after = await get(url(layerId));
    expect([after.statusCode, after.headers.etag]).toEqual([200, expect.not.stringMatching(/^"original:/)]);
    expect(after.rawPayload.equals(frame)).toBe(true);
  }

  it('serves an OrthancWSIDicomizer slide (TILED_SPARSE, 512-px JPEG frames) at once, its frames that are our tiles as they are, and its pyramid keeps them', async () => {
    const files = await dicomizerSlide({ tileSize: 512, compression: 'jpeg', pyramid: true });
    await frameSentAsItIs('dicomizer-512', files, async (layerId, _tile, frame) => {
      // Level 1 is cut from level 0, as the conversion makes it, not taken from the Dicomizer's own level 1.
      const reduced = await get(`/iiif/2/${layerId}/1024,0,1024,1024/512,/0/default.jpg`);
      const reducedFrame = await frameFromFile(files[1]!, 512, 0, await fs.mkdtemp(path.join(dir, 'frames-')));
      expect([reduced.statusCode, reduced.rawPayload.equals(reducedFrame)]).toEqual([200, false]);
      // Asked as PNG, or smaller than the frame, the tile is made from it.
      const png = await get(`/iiif/2/${layerId}/512,1024,512,512/256,/0/default.png`);
      expect([png.statusCode, png.headers['content-type']]).toEqual([200, 'image/png']);
      expect(png.rawPayload.equals(frame)).toBe(false);
    });
  }, 300_000);

  it("serves TIFFToDicom's 512-px RGB frames (Adobe-marked JPEG) as they are, as dcmtk decodes them, before and after the hand-over", async () => {
    const files = await tiffToDicomSlide({ tileSize: 512 });
    const byDcmtk = await frameDecodedByDcmtk(files[0]!, 512, 1024, path.join(dir, 'rgb-frame.png'));
    await frameSentAsItIs('tifftodicom-512', files, async (_layerId, tile) => {
      // What a browser (libjpeg-turbo, as sharp) shows of the bytes is what dcmtk, told RGB by the file, decodes.
      expect(await meanAbsoluteDifference(tile, byDcmtk)).toBeLessThanOrEqual(3);
    });
  }, 300_000);

  it('serves a TIFFToDicom slide (TILED_FULL, 240-px JPEG frames) at once and hands over within 3/255', async () => {
    const { magnification } = await viewedBeforeAndAfter('tifftodicom', await tiffToDicomSlide(), {
      width: 2220,
      height: 2967,
    });
    expect(magnification).toBe(20);
  }, 300_000);

  it('serves JPEG 2000 and uncompressed frames at once, decoded as the conversion decodes them, within 3/255 of the pyramid', async () => {
    const j2k = await dicomizerSlide({
      tileSize: 256,
      compression: 'jpeg2000',
      crop: { left: 500, top: 800, width: 1000, height: 700 },
    });
    await viewedBeforeAndAfter('jpeg2000', j2k, { width: 1000, height: 700 });
    const native = await dicomizerSlide({
      tileSize: 256,
      compression: 'none',
      crop: { left: 600, top: 700, width: 700, height: 500 },
    });
    await viewedBeforeAndAfter('native', native, { width: 700, height: 500 });
  }, 300_000);
});
