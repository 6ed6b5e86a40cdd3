import { execFileSync } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { convertImage, detectImagingTools } from './index.ts';
import { expectJpegPyramid, expectThumbnail, firstTileLayout, slide, tempDir } from './pyramid.test-support.ts';

const dirs: string[] = [];
async function workDir(): Promise<string> {
  const dir = await tempDir('convert');
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('convertImage on real slides', () => {
  it('runs where vips with OpenSlide is installed (.ci/run and npm start install them)', async () => {
    expect(await detectImagingTools()).toMatchObject({ vips: true, openslide: true });
  });

  it('converts the Aperio SVS through OpenSlide with metadata and associated images', async () => {
    const result = await convertImage({
      sourcePath: slide('CMU-1-Small-Region.svs'),
      workDir: await workDir(),
      timeoutMs: 60_000,
    });
    expect(result).toMatchObject({
      format: 'aperio',
      width: 2220,
      height: 2967,
      magnification: 20,
      scannedIn: 'CPAPERIOCS',
    });
    expect(result.resolution?.x).toBeCloseTo(10_000 / 0.499, 3);
    expect(result.resolution?.y).toBeCloseTo(20_040.08, 1);
    expect(result.scannedAt?.toISOString()).toBe('2009-12-29T09:59:15.000Z');
    expect(result.layers).toHaveLength(1);
    expect(result.layers[0]).toMatchObject({ layerNumber: 0, width: 2220, height: 2967 });
    await expectJpegPyramid(result.layers[0]!.pyramidPath, 2220, 2967);
    // Restart markers every 64 px let a region across tiles decode only the parts it needs.
    expect(await firstTileLayout(result.layers[0]!.pyramidPath)).toMatchObject({ segmentWidth: 64, segmentsAcross: 8 });
    await expectThumbnail(result.thumbnailPath);
    const associated = Object.fromEntries(result.associated.map((a) => [a.kind, a]));
    expect(associated.label).toMatchObject({ width: 387, height: 463 });
    expect(associated.macro).toMatchObject({ width: 1280, height: 431 });
    expect(associated.thumbnail).toMatchObject({ width: 574, height: 768 });
    expect((await sharp(associated.label!.path).metadata()).channels).toBe(3);
  });

  it('converts the OME-TIFF z-stack into 5 layers in TheZ order, legible after the int8 stretch', async () => {
    const result = await convertImage({
      sourcePath: slide('multi-channel-z-series.ome.tif'),
      workDir: await workDir(),
      timeoutMs: 60_000,
    });
    expect(result).toMatchObject({
      format: 'ome-tiff',
      width: 439,
      height: 167,
      resolution: null,
      magnification: null,
    });
    expect(result.layers.map((l) => l.metadata)).toEqual(
      [0, 1, 2, 3, 4].map((z) => ({ the_z: z, position_z: z, position_z_unit: null })),
    );
    for (const layer of result.layers) await expectJpegPyramid(layer.pyramidPath, 439, 167);
    // Three channels combine into RGB; the stretched text plane must use the full range, not sit black or white.
    const base = await sharp(result.layers[2]!.pyramidPath).raw().toBuffer({ resolveWithObject: true });
    expect(base.info.channels).toBe(3);
    const stats = await sharp(result.layers[2]!.pyramidPath).stats();
    for (const channel of stats.channels.slice(0, 3)) {
      expect(channel.max - channel.min).toBeGreaterThan(200);
      expect(channel.mean).toBeGreaterThan(40);
      expect(channel.mean).toBeLessThan(215);
    }
    await expectThumbnail(result.thumbnailPath);
  });

  it('converts the plain 16-bit TIFF, stretched over its real range', async () => {
    const result = await convertImage({
      sourcePath: slide('smalltif-16bit.tif'),
      workDir: await workDir(),
      timeoutMs: 60_000,
    });
    expect(result).toMatchObject({ format: 'tiff', width: 640, height: 480, magnification: null, associated: [] });
    expect(result.resolution?.x).toBeCloseTo(96 / 2.54, 3);
    expect(result.layers).toHaveLength(1);
    await expectJpegPyramid(result.layers[0]!.pyramidPath, 640, 480);
    const [grey] = (await sharp(result.layers[0]!.pyramidPath).stats()).channels;
    // Range 1837..65535 maps to 0..255; a >> 8 shift would leave min ≈ 7, a cast would clip to 255.
    expect(grey!.min).toBeLessThan(5);
    expect(grey!.max).toBeGreaterThan(250);
    await expectThumbnail(result.thumbnailPath);
  });

  // libvips' openslideload declines OpenSlide's generic-tiff, so a plain pyramid goes through sharp from its
  // full-resolution page; its own levels are not reused because we write our 512-px pyramid anyway.
  it('converts a derived pyramidal TIFF (written here by vips, not from a scanner)', async () => {
    const dir = await workDir();
    const derived = path.join(dir, 'derived pyramid [x].tif');
    execFileSync('vips', [
      'tiffsave',
      slide('CMU-1-Small-Region.svs'),
      derived,
      '--tile',
      '--pyramid',
      '--compression',
      'jpeg',
      '--Q',
      '85',
      '--tile-width',
      '256',
      '--tile-height',
      '256',
      '--bigtiff',
      // Without --strip the copied Aperio description would make OpenSlide treat it as an Aperio slide.
      '--strip',
    ]);
    const out = path.join(dir, 'out');
    await mkdir(out);
    const result = await convertImage({ sourcePath: derived, workDir: out, timeoutMs: 60_000 });
    expect(result).toMatchObject({ width: 2220, height: 2967 });
    expect(result.format).toBe('tiff');
    // --strip also drops the resolution, leaving vips' default of 1 px/mm in the TIFF tags.
    expect(result.resolution?.x).toBeCloseTo(10, 3);
    await expectJpegPyramid(result.layers[0]!.pyramidPath, 2220, 2967);
    // Tiled by the vips command line (8-bit RGB): the pixels of the source, less one JPEG pass.
    expect(await firstTileLayout(result.layers[0]!.pyramidPath)).not.toBeNull();
    const cut = { left: 700, top: 900, width: 600, height: 600 };
    const ours = await sharp(result.layers[0]!.pyramidPath).extract(cut).raw().toBuffer();
    const source = await sharp(derived).extract(cut).raw().toBuffer();
    let difference = 0;
    for (let i = 0; i < ours.length; i++) difference += Math.abs(ours[i]! - source[i]!);
    expect(difference / ours.length).toBeLessThan(3);
  });

  it('converts a JPEG with EXIF orientation applied', async () => {
    const dir = await workDir();
    const source = path.join(dir, 'photo.jpg');
    // 600×300 stored, orientation 6 (rotate 90° clockwise) → displayed 300×600.
    await sharp({ create: { width: 600, height: 300, channels: 3, background: '#c04080' } })
      .withMetadata({ orientation: 6 })
      .withExifMerge({ IFD0: { DateTime: '2024:05:06 07:08:09' } })
      .jpeg()
      .toFile(source);
    const result = await convertImage({ sourcePath: source, workDir: dir, timeoutMs: 30_000 });
    expect(result).toMatchObject({ format: 'jpeg', width: 300, height: 600 });
    expect(result.scannedAt?.toISOString()).toBe('2024-05-06T07:08:09.000Z');
    await expectJpegPyramid(result.layers[0]!.pyramidPath, 300, 600);
  });
});
