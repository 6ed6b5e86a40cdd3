import { execFileSync } from 'node:child_process';
import { copyFile, open, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertImage, readTiffStructure, UnsupportedImageError } from './index.ts';
import { writeNdpi, type NdpiLevel } from './ndpi-writer.test-support.ts';
import { expectJpegPyramid, expectThumbnail, slide, tempDir } from './pyramid.test-support.ts';
import { ndpiThumbnailLevel } from './ndpi-levels.ts';
import { THUMBNAIL_SIZE, writeThumbnail } from './pyramid.ts';
import { TIFF_TAG } from './tiff-structure.ts';

/** The NDPI quirks each file carries, from the pixels of the Aperio test slide. */
const FILES: Record<string, { levels: NdpiLevel[]; gapBefore?: number }> = {
  // Levels 3 and 9 times smaller, restart segments of 744 and 248 px (93 and 31 MCUs), a second focal plane.
  odd: {
    levels: [
      { width: 2232, height: 2968, restartInterval: 93 },
      { width: 744, height: 992, restartInterval: 31 },
      { width: 744, height: 992, restartInterval: 31, zOffset: 2000 },
      { width: 248, height: 328, restartInterval: 31 },
    ],
  },
  // Level 0 wider than a JPEG frame can say (its SOF width is 0).
  wide: {
    levels: [
      { width: 66_000, height: 96, restartInterval: 125 },
      { width: 22_000, height: 32, restartInterval: 125 },
    ],
  },
  // Every offset past 4 GiB, in a sparse file.
  past4GiB: {
    gapBefore: 2 ** 32 + 4099,
    levels: [
      { width: 1024, height: 1472, restartInterval: 32 },
      { width: 512, height: 736, restartInterval: 16 },
    ],
  },
};

let dir: string;
const files: Record<string, string> = {};
beforeAll(async () => {
  dir = await tempDir('ndpi');
  await Promise.all(
    Object.entries(FILES).map(async ([name, spec]) => {
      files[name] = path.join(dir, `${name}.ndpi`);
      await writeNdpi(files[name], { source: slide('CMU-1-Small-Region.svs'), sourceLens: 20, mpp: 0.5, ...spec });
    }),
  );
}, 60_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The system's vips, not the one sharp bundles (whose VIPSHOME hides the OpenSlide module). */
function systemTool(command: string, args: string[]): string {
  const env = { ...process.env };
  delete env.VIPSHOME;
  return execFileSync(command, args, { encoding: 'utf8', env });
}

function openSlideProperties(file: string): Map<string, string> {
  const text = systemTool('openslide-show-properties', [file]);
  return new Map([...text.matchAll(/^([^:]+): '(.*)'$/gm)].map((m) => [m[1]!, m[2]!]));
}

/** A region of the slide as OpenSlide reads it at one of its levels, as raw RGB. */
function openSlideRegion(file: string, level: number, region: Region): Promise<Buffer> {
  const out = path.join(dir, `region-${level}-${region.left}.v`);
  systemTool('vips', ['openslideload', file, out, '--level', String(level)]);
  const { left, top, width, height } = region;
  const cut = path.join(dir, `region-${level}-${left}.png`);
  systemTool('vips', ['crop', out, cut, ...[left, top, width, height].map(String)]);
  return sharp(cut).removeAlpha().raw().toBuffer();
}

interface Region {
  left: number;
  top: number;
  width: number;
  height: number;
}

function meanDifference(a: Buffer, b: Buffer): number {
  expect(a.length).toBe(b.length);
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

describe('the NDPI writer, with OpenSlide as the judge', () => {
  it.each(Object.keys(FILES))(
    'OpenSlide reads the %s file as Hamamatsu NDPI with its levels, scale and macro',
    (name) => {
      const properties = openSlideProperties(files[name]!);
      const planeZero = FILES[name]!.levels.filter((level) => !level.zOffset);
      expect(properties.get('openslide.vendor')).toBe('hamamatsu');
      expect(properties.get('openslide.mpp-x')).toBe('0.5');
      expect(properties.get('openslide.objective-power')).toBe('20');
      expect(properties.get('tiff.ResolutionUnit')).toBe('centimeter');
      // OpenSlide adds the 1/2, 1/4 and 1/8 scales its JPEG decoder gives to each stored level.
      const widths = [...properties].filter(([key]) => /^openslide\.level\[\d+\]\.width$/.test(key)).map(([, v]) => +v);
      for (const level of planeZero) expect(widths).toContain(level.width);
      expect(properties.get('openslide.level[0].width')).toBe(String(planeZero[0]!.width));
      expect(properties.get('openslide.level[0].height')).toBe(String(planeZero[0]!.height));
      expect(properties.get('openslide.level[0].tile-width')).toBe(String(planeZero[0]!.restartInterval * 8));
      const associated = systemTool('vipsheader', ['-f', 'slide-associated-images', files[name]!]);
      expect(associated.trim()).toBe('macro');
    },
  );

  it('keeps the file past 4 GiB sparse, and our TIFF reader follows its offsets there as OpenSlide does', async () => {
    const file = files.past4GiB!;
    const { size, blocks } = await stat(file);
    expect(size).toBeGreaterThan(2 ** 32);
    expect(blocks * 512).toBeLessThan(64 * 2 ** 20);
    const handle = await open(file, 'r');
    const structure = await readTiffStructure(handle).finally(() => handle.close());
    expect(structure.ndpi).toBe(true);
    expect(structure.pages.map((page) => [page.width, page.height])).toEqual([
      [1024, 1472],
      [512, 736],
      [1191, 408],
      [192, 276],
    ]);
    expect(structure.pages[0]!.stripOffsets[0]).toBe(16 + 2 ** 32 + 4099);
  });
});

/** Our pyramid's level `level` (halvings) against OpenSlide's level of the same scale, at one region. */
async function expectLevelMatches(
  pyramid: string,
  file: string,
  level: number,
  openSlideLevel: number,
  region: Region,
) {
  const ours = await sharp(pyramid, { page: level, limitInputPixels: false })
    .extract(region)
    .removeAlpha()
    .raw()
    .toBuffer();
  expect(meanDifference(ours, await openSlideRegion(file, openSlideLevel, region))).toBeLessThanOrEqual(3);
}

describe('converting NDPI', () => {
  it.each([
    // [file, width, height, regions at our levels 0, 1, 2 with OpenSlide's level of the same scale]
    ['odd', 2232, 2968, [0, 1, 3], { left: 700, top: 900, width: 512, height: 512 }],
    ['wide', 66_000, 96, [0, 1, 3], { left: 40_100, top: 0, width: 512, height: 96 }],
    ['past4GiB', 1024, 1472, [0, 1, 2], { left: 100, top: 180, width: 256, height: 256 }],
  ] as const)(
    'converts the %s file within 3/255 of OpenSlide at three levels, with its scale and macro',
    async (name, width, height, levels, region) => {
      const workDir = await tempDir(`ndpi-${name}`);
      try {
        const result = await convertImage({ sourcePath: files[name]!, workDir, timeoutMs: 60_000 });
        expect(result).toMatchObject({
          format: 'hamamatsu',
          width,
          height,
          magnification: 20,
          scannedIn: 'Hamamatsu C13220',
        });
        expect(result.resolution).toEqual({ x: 20_000, y: 20_000, unit: 'dpc' });
        expect(result.scannedAt?.toISOString()).toBe('2024-05-06T07:08:09.000Z');
        const pyramid = result.layers[0]!.pyramidPath;
        await expectJpegPyramid(pyramid, width, height);
        for (const [level, openSlideLevel] of levels.entries()) {
          const scale = 2 ** level;
          const scaled = {
            left: Math.floor(region.left / scale),
            top: Math.floor(region.top / scale),
            width: Math.max(8, Math.floor(region.width / scale)),
            height: Math.max(4, Math.floor(region.height / scale)),
          };
          await expectLevelMatches(pyramid, files[name]!, level, openSlideLevel, scaled);
        }
        await expectThumbnail(result.thumbnailPath);
        expect(result.associated.map(({ kind, width: w }) => [kind, w])).toEqual([['macro', 1191]]);
        const macro = await sharp(result.associated[0]!.path).stats();
        // The slide's pink tissue on white, not a grey or black placeholder.
        expect(macro.channels[0]!.mean).toBeGreaterThan(150);
      } finally {
        await rm(workDir, { recursive: true, force: true });
      }
    },
    90_000,
  );
});

describe('the thumbnail of an NDPI, taken beside its pyramid', () => {
  const levelOf = async (name: string) => {
    const handle = await open(files[name]!, 'r');
    const structure = await readTiffStructure(handle).finally(() => handle.close());
    const level = ndpiThumbnailLevel(structure, THUMBNAIL_SIZE);
    const { page } = level!;
    return { width: page.width, height: page.height, z: page.tags.get(TIFF_TAG.NdpiZOffset)?.value };
  };

  it('comes from the smallest level of focal plane 0 that covers it, never one libjpeg cannot decode', async () => {
    expect(await levelOf('odd')).toEqual({ width: 744, height: 992, z: [0] });
    expect(await levelOf('wide')).toEqual({ width: 22_000, height: 32, z: [0] });
  });

  it('looks like the one cut from the finished pyramid (within 3/255)', async () => {
    const workDir = await tempDir('ndpi-thumbnail');
    const otherDir = await tempDir('ndpi-thumbnail-pyramid');
    try {
      const result = await convertImage({ sourcePath: files.odd!, workDir, timeoutMs: 60_000 });
      // Compared at a quarter of their size: two resamplings of differently sized sources differ in fine detail.
      const small = (file: string) => sharp(file).resize(128, 128, { fit: 'fill' }).raw().toBuffer();
      const fromLevel = await sharp(result.thumbnailPath).raw().toBuffer({ resolveWithObject: true });
      const context = { sourcePath: files.odd!, workDir: otherDir, deadline: Date.now() + 60_000, maxPixels: 1e10 };
      const pyramidThumbnail = await writeThumbnail({ ...context, niceness: 0 }, result.layers[0]!.pyramidPath);
      const fromPyramid = await sharp(pyramidThumbnail).raw().toBuffer({ resolveWithObject: true });
      expect([fromLevel.info.width, fromLevel.info.height]).toEqual([fromPyramid.info.width, fromPyramid.info.height]);
      expect(meanDifference(await small(result.thumbnailPath), await small(pyramidThumbnail))).toBeLessThanOrEqual(3);
    } finally {
      await rm(workDir, { recursive: true, force: true });
      await rm(otherDir, { recursive: true, force: true });
    }
  }, 90_000);
});

/** A copy of the odd file with `damage` done to its level 0, converted. */
async function convertDamaged(damage: (file: string, page: Awaited<ReturnType<typeof firstPage>>) => Promise<void>) {
  const workDir = await tempDir('ndpi-damaged');
  try {
    const file = path.join(workDir, 'damaged.ndpi');
    await copyFile(files.odd!, file);
    await damage(file, await firstPage(file));
    const started = Date.now();
    const error = await convertImage({ sourcePath: file, workDir, timeoutMs: 20_000 }).catch((e: unknown) => e);
    return { error, seconds: (Date.now() - started) / 1000 };
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

async function firstPage(file: string) {
  const handle = await open(file, 'r');
  const [page] = (await readTiffStructure(handle).finally(() => handle.close())).pages;
  return page!;
}

/** Overwrites the 4-byte value of `tag` in the IFD at `ifd` (a classic 12-byte entry), or at its out-of-line offset + `at`. */
async function patchLong(file: string, ifd: number, tag: number, value: number, outOfLineAt?: number) {
  const handle = await open(file, 'r+');
  try {
    const count = Buffer.alloc(2);
    await handle.read(count, 0, 2, ifd);
    const entries = Buffer.alloc(count.readUInt16LE() * 12);
    await handle.read(entries, 0, entries.length, ifd + 2);
    for (let i = 0; i < entries.length; i += 12) {
      if (entries.readUInt16LE(i) !== tag) continue;
      const bytes = Buffer.alloc(4);
      bytes.writeUInt32LE(value);
      const position = outOfLineAt === undefined ? ifd + 2 + i + 8 : entries.readUInt32LE(i + 8) + outOfLineAt;
      await handle.write(bytes, 0, 4, position);
      return;
    }
    throw new Error(`tag ${tag} not found`);
  } finally {
    await handle.close();
  }
}

describe('converting a damaged NDPI', () => {
  it('fails at once with -100 when the level strip runs past the end of the file', async () => {
    const { error, seconds } = await convertDamaged((file, page) =>
      patchLong(file, page.offset, TIFF_TAG.StripByteCounts, page.stripByteCounts[0]! + 10_000_000),
    );
    expect(error).toBeInstanceOf(UnsupportedImageError);
    expect((error as Error).message).toMatch(/TIFF page 0 data ends at byte \d+ but the file has \d+ bytes/);
    expect(seconds).toBeLessThan(5);
  });

  it('fails at once with -100 when McuStarts points past the JPEG data', async () => {
    const { error, seconds } = await convertDamaged((file, page) =>
      patchLong(file, page.offset, TIFF_TAG.NdpiMcuStarts, page.stripByteCounts[0]! + 64, 4 * 10),
    );
    expect(error).toBeInstanceOf(UnsupportedImageError);
    expect((error as Error).message).toMatch(/NDPI page 0: a restart segment starts at byte \d+ of a \d+-byte JPEG/);
    expect(seconds).toBeLessThan(5);
  });

  it('fails with -100, not a hang, when the JPEG data of a level is cut short', async () => {
    const { error, seconds } = await convertDamaged(async (file, page) => {
      // The strip keeps its length but its second half is gone (zeros): the restart markers there are missing.
      const handle = await open(file, 'r+');
      const half = Math.floor(page.stripByteCounts[0]! / 2);
      await handle.write(Buffer.alloc(half), 0, half, page.stripOffsets[0]! + half).finally(() => handle.close());
    });
    expect(error).toBeInstanceOf(UnsupportedImageError);
    expect((error as Error).message).toMatch(/OpenSlide\/vips could not read the image/);
    expect(seconds).toBeLessThan(15);
  }, 30_000);
});

describe('NDPI that OpenSlide 3.4.1 cannot read', () => {
  it('fails with -100 and OpenSlide’s reason when a level is coded with 4:2:0 chroma', async () => {
    const workDir = await tempDir('ndpi-420');
    try {
      const file = path.join(workDir, 'chroma420.ndpi');
      const levels = [{ width: 1024, height: 1024, restartInterval: 16, chroma420: true }];
      await writeNdpi(file, { source: slide('CMU-1-Small-Region.svs'), levels });
      expect(openSlideProperties(file).get('openslide.vendor')).toBe('hamamatsu');
      const error = await convertImage({ sourcePath: file, workDir, timeoutMs: 20_000 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnsupportedImageError);
      expect((error as Error).message).toMatch(
        /OpenSlide\/vips could not read the image: .*Corrupt JPEG data: found marker 0xd9 instead of RST0/,
      );
    } finally {
      await rm(workDir, { recursive: true, force: true });
    }
  }, 30_000);
});
