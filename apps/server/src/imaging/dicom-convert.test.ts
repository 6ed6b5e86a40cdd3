import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, open, rm, stat, truncate } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InstanceFiles } from './dicom-convert-frames.ts';
import { readDicomInstance } from './dicom-read.ts';
import { assembleSlide } from './dicom-read-slide.ts';
import { convertImage, readTiffStructure, UnsupportedImageError } from './index.ts';
import { ctSlice, dicomizerSlide, SOURCE_SLIDE, tiffToDicomSlide, zipFiles } from './dicom-read.test-support.ts';
import { baseTile, expectJpegPyramid, expectThumbnail, slide, tempDir } from './pyramid.test-support.ts';

let dir: string;
let n = 0;
beforeAll(async () => {
  dir = await tempDir('dicom-convert');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function convert(sourcePath: string) {
  const workDir = path.join(dir, `work-${n++}`);
  await mkdir(workDir);
  return convertImage({ sourcePath, workDir, timeoutMs: 120_000 });
}

/** Mean absolute difference per sample between our level 0 and the original slide read by OpenSlide. */
async function differenceFromOriginal(
  pyramidPath: string,
  cut: { left: number; top: number; width: number; height: number },
  offset = { left: 0, top: 0 },
): Promise<number> {
  const reference = path.join(dir, `reference-${n++}.png`);
  const { left, top, width, height } = cut;
  execFileSync('vips', [
    'crop',
    `${slide(SOURCE_SLIDE)}[rgb]`,
    reference,
    ...[left + offset.left, top + offset.top, width, height].map(String),
  ]);
  const ours = await sharp(pyramidPath).extract(cut).removeAlpha().raw().toBuffer();
  const original = await sharp(reference).removeAlpha().raw().toBuffer();
  expect(ours.length).toBe(original.length);
  let difference = 0;
  for (let i = 0; i < ours.length; i++) difference += Math.abs(ours[i]! - original[i]!);
  return difference / ours.length;
}

const CUT = { left: 700, top: 900, width: 600, height: 600 };

describe('converting DICOM whole-slide images', () => {
  it("converts a zip of TIFFToDicom's instances: pyramid, label, overview, thumbnail and the slide's metadata", async () => {
    const zip = await zipFiles(path.join(dir, 'tifftodicom.zip'), await tiffToDicomSlide());
    const result = await convert(zip);
    expect(result).toMatchObject({
      format: 'dicom',
      width: 2220,
      height: 2967,
      magnification: 20,
      scannedIn: 'Aperio ScanScope',
    });
    expect(result.resolution?.x).toBeCloseTo(10_000 / 0.499, 3);
    expect(result.resolution?.y).toBeCloseTo(10_000 / 0.499, 3);
    expect(result.scannedAt?.toISOString()).toBe('2009-12-29T09:59:15.000Z');
    await expectJpegPyramid(result.layers[0]!.pyramidPath, 2220, 2967);
    await expectThumbnail(result.thumbnailPath);
    const associated = Object.fromEntries(result.associated.map((picture) => [picture.kind, picture]));
    expect(associated.label).toMatchObject({ width: 387, height: 463 });
    expect(associated.macro).toMatchObject({ width: 1280, height: 431 });
    expect(associated.thumbnail).toMatchObject({ width: 574, height: 768 });
    expect(await differenceFromOriginal(result.layers[0]!.pyramidPath, CUT)).toBeLessThan(3);
  });

  it("converts the Dicomizer's 240-px sparse frames of a level split over a concatenation, within 3/255", async () => {
    const files = await dicomizerSlide({ tileSize: 240, compression: 'jpeg', maxSizeMb: 1, pyramid: true });
    const result = await convert(await zipFiles(path.join(dir, 'dicomizer-240.zip'), files));
    expect(result).toMatchObject({ format: 'dicom', width: 2220, height: 2967, scannedIn: 'Orthanc WSI Dicomizer' });
    await expectJpegPyramid(result.layers[0]!.pyramidPath, 2220, 2967);
    expect(await differenceFromOriginal(result.layers[0]!.pyramidPath, CUT)).toBeLessThan(3);
    // The bottom-right corner: edge frames are whole frames, of which only the level's part is kept.
    const corner = { left: 1900, top: 2700, width: 320, height: 267 };
    expect(await differenceFromOriginal(result.layers[0]!.pyramidPath, corner)).toBeLessThan(3);
  });

  it.each([
    { coded: 'Adobe RGB', recoded: false, photometric: 2 },
    { coded: 'JFIF YCbCr 4:2:0', recoded: true, photometric: 6 },
  ])(
    "keeps the Dicomizer's 512-px $coded frames as the pyramid's full-resolution tiles, in a page libvips reads as they decode",
    async ({ recoded, photometric }) => {
      const files = await dicomizerSlide({ tileSize: 512, compression: 'jpeg', pyramid: true, recoded });
      const result = await convert(await zipFiles(path.join(dir, `dicomizer-512-${recoded}.zip`), files));
      const pyramid = result.layers[0]!.pyramidPath;
      await expectJpegPyramid(pyramid, 2220, 2967);
      const handle = await open(pyramid, 'r');
      const [page] = (await readTiffStructure(handle).finally(() => handle.close())).pages;
      expect(page?.photometric).toBe(photometric);
      const [base] = assembleSlide(await Promise.all(files.map((file) => readDicomInstance(file, file)))).levels;
      const frames = new InstanceFiles();
      try {
        // Inner and edge tiles alike: the corner's frame keeps the Dicomizer's padding beyond the slide.
        for (const [index, left, top] of [
          [0, 0, 0],
          [7, 1024, 512],
          [29, 2048, 2560],
        ] as const) {
          const { instance, frame } = base!.tiles.get(index)!;
          const bytes = await frames.read(instance, frame);
          expect((await baseTile(pyramid, index)).equals(bytes), `tile ${index}`).toBe(true);
          // libtiff (libvips' reader) decodes the page as it is declared: a wrong colour or sampling would show here.
          const cut = { left, top, width: Math.min(512, 2220 - left), height: Math.min(512, 2967 - top) };
          const read = await sharp(pyramid).extract(cut).raw().toBuffer();
          const decoded = await sharp(bytes)
            .extract({ ...cut, left: 0, top: 0 })
            .raw()
            .toBuffer();
          let difference = 0;
          for (let i = 0; i < read.length; i++) difference += Math.abs(read[i]! - decoded[i]!);
          expect(difference / read.length, `tile ${index}`).toBeLessThan(1);
        }
      } finally {
        await frames.close();
      }
      if (!recoded) expect(await differenceFromOriginal(pyramid, CUT)).toBeLessThan(3);
    },
  );

  // A part of the slide: each JPEG 2000 frame is one run of the vips command line.
  it('converts JPEG 2000 frames of 256 px, within 3/255', async () => {
    const crop = { left: 500, top: 800, width: 1000, height: 700 };
    const files = await dicomizerSlide({ tileSize: 256, compression: 'jpeg2000', crop });
    const result = await convert(await zipFiles(path.join(dir, 'dicomizer-j2k.zip'), files));
    expect(result).toMatchObject({ format: 'dicom', width: 1000, height: 700 });
    const cut = { left: 0, top: 0, width: 1000, height: 700 };
    expect(await differenceFromOriginal(result.layers[0]!.pyramidPath, cut, crop)).toBeLessThan(3);
  });

  it('converts a single .dcm of uncompressed frames, within 3/255', async () => {
    const crop = { left: 600, top: 700, width: 700, height: 500 };
    const [base] = await dicomizerSlide({ tileSize: 256, compression: 'none', crop });
    const single = path.join(dir, 'level.dcm');
    await copyFile(base!, single);
    const result = await convert(single);
    expect(result).toMatchObject({ format: 'dicom', width: 700, height: 500 });
    const cut = { left: 0, top: 0, width: 700, height: 500 };
    expect(await differenceFromOriginal(result.layers[0]!.pyramidPath, cut, crop)).toBeLessThan(3);
  });

  it('fails with -100 and a message saying what is wrong for the four kinds of bad input', async () => {
    const refusal = (message: string | RegExp) =>
      expect.objectContaining({ name: 'UnsupportedImageError', message: expect.stringMatching(message) });

    const [ct] = await ctSlice();
    await expect(convert(await zipFiles(path.join(dir, 'ct.zip'), [ct!]))).rejects.toEqual(
      refusal(
        /^DICOM ct\.dcm: not a whole-slide image \(SOP class 1\.2\.840\.10008\.5\.1\.4\.1\.1\.2, CT Image Storage\)$/,
      ),
    );

    const j2k = await dicomizerSlide({ tileSize: 256, compression: 'jpeg2000', maxSizeMb: 1 });
    const instances = await Promise.all(j2k.map((file) => readDicomInstance(file, path.basename(file))));
    const second = instances.find((i) => i.totalColumns === 2220 && i.concatenation?.number === 2)!;
    const withoutSecond = j2k.filter((file) => file !== second.file);
    await expect(convert(await zipFiles(path.join(dir, 'missing.zip'), withoutSecond))).rejects.toEqual(
      refusal(/^DICOM: the series misses frames: level 2220×2967 lacks frames/),
    );

    const twoSlides = [
      ...(await tiffToDicomSlide()),
      ...(await dicomizerSlide({ tileSize: 256, compression: 'jpeg2000' })),
    ];
    await expect(convert(await zipFiles(path.join(dir, 'two.zip'), twoSlides))).rejects.toEqual(
      refusal(/^DICOM: the upload holds instances of 2 different slides/),
    );

    const [volume] = await tiffToDicomSlide();
    const cut = path.join(dir, 'cut.dcm');
    await copyFile(volume!, cut);
    await truncate(cut, Math.floor((await stat(cut)).size / 2));
    await expect(convert(cut)).rejects.toEqual(
      refusal(/^DICOM cut\.dcm: the file is truncated: it holds \d+ complete frames of 130$/),
    );
    await expect(convert(cut)).rejects.toBeInstanceOf(UnsupportedImageError);
  });
});
