import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, open, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { traceSpawns, type SpawnRecord } from '#test/spawn-trace.ts';
import { convertImage, readTiffStructure } from './index.ts';
import { ndpiBaseJpeg } from './ndpi-levels.ts';
import { writeNdpi, type NdpiLevel } from './ndpi-writer.test-support.ts';
import { expectJpegPyramid, slide, tempDir } from './pyramid.test-support.ts';

const FILES: Record<string, NdpiLevel[]> = {
  normal: [
    { width: 1024, height: 1472, restartInterval: 32 },
    { width: 512, height: 736, restartInterval: 16 },
  ],
  // Level 0 wider than a JPEG frame can say (its SOF width is 0).
  wide: [
    { width: 66_000, height: 96, restartInterval: 125 },
    { width: 22_000, height: 32, restartInterval: 125 },
  ],
  chroma420: [{ width: 1024, height: 1024, restartInterval: 16, chroma420: true }],
};

let dir: string;
const files: Record<string, string> = {};
beforeAll(async () => {
  dir = await tempDir('ndpi-base');
  await Promise.all(
    Object.entries(FILES).map(async ([name, levels]) => {
      files[name] = path.join(dir, `${name}.ndpi`);
      // A scale and a lens other than the writer's own, for the metadata to be read, not assumed.
      await writeNdpi(files[name], { source: slide('CMU-1-Small-Region.svs'), levels, mpp: 0.2278, sourceLens: 40 });
    }),
  );
}, 60_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

async function structureOf(file: string) {
  const handle = await open(file, 'r');
  return readTiffStructure(handle).finally(() => handle.close());
}

/** A copy of the normal file whose level-0 JPEG has `damage` done to it (given the strip's offset and length). */
async function damagedCopy(name: string, damage: (bytes: Buffer) => void): Promise<string> {
  const file = path.join(dir, `${name}.ndpi`);
  await copyFile(files.normal!, file);
  const [page] = (await structureOf(file)).pages;
  const handle = await open(file, 'r+');
  try {
    const bytes = Buffer.alloc(page!.stripByteCounts[0]!);
    await handle.read(bytes, 0, bytes.length, page!.stripOffsets[0]);
    damage(bytes);
    await handle.write(bytes, 0, bytes.length, page!.stripOffsets[0]);
  } finally {
    await handle.close();
  }
  return file;
}

/**
 * A conversion, with what each `vips dzsave` of it read its pixels from, which of them started without libvips'
 * loadable modules (OpenSlide's among them: see vips-cli.ts) and whether OpenSlide opened the file.
 */
async function convertTraced(file: string) {
  const workDir = await tempDir('ndpi-base-convert');
  const spawns: SpawnRecord[] = [];
  try {
    const result = await traceSpawns(() => convertImage({ sourcePath: file, workDir, timeoutMs: 60_000 }), spawns);
    await expectJpegPyramid(result.layers[0]!.pyramidPath, result.width, result.height);
    const pyramids = spawns.filter(({ args }) => args.includes('dzsave'));
    return {
      result,
      pyramidInputs: pyramids.map(({ args }) => args[args.indexOf('dzsave') + 1]),
      withoutModules: pyramids.map(({ env }) => env?.VIPSHOME != null && !existsSync(env.VIPSHOME)),
      headerRead: spawns.some(({ args }) => args.includes('vipsheader')),
    };
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

function openSlideProperties(file: string): Map<string, string> {
  const env = { ...process.env };
  delete env.VIPSHOME;
  const text = execFileSync('openslide-show-properties', [file], { encoding: 'utf8', env });
  return new Map([...text.matchAll(/^([^:]+): '(.*)'$/gm)].map((m) => [m[1]!, m[2]!]));
}

describe('an NDPI level 0 decoded as the plain JPEG it is', () => {
  it('is the strip of level 0 for a whole JPEG whose frame gives its size', async () => {
    const [page] = (await structureOf(files.normal!)).pages;
    expect(await ndpiBaseJpeg(files.normal!, await structureOf(files.normal!))).toEqual({
      path: files.normal,
      start: page!.stripOffsets[0],
      length: page!.stripByteCounts[0],
    });
  });

  it('is left to OpenSlide past 65,535 px, in 4:2:0, or without its end of image', async () => {
    const cut = await damagedCopy('no-eoi', (bytes) => bytes.fill(0, bytes.length - 2));
    for (const file of [files.wide!, files.chroma420!, cut]) {
      expect(await ndpiBaseJpeg(file, await structureOf(file))).toBeNull();
    }
  });

  it('is what a normal NDPI’s pyramid is made from, with the metadata OpenSlide reports, OpenSlide never run', async () => {
    const { result, pyramidInputs, withoutModules, headerRead } = await convertTraced(files.normal!);
    expect(pyramidInputs).toEqual(['stdin[fail-on=warning]']);
    expect(withoutModules).toEqual([true]);
    expect(headerRead).toBe(false);
    const properties = openSlideProperties(files.normal!);
    expect(result).toMatchObject({
      format: properties.get('openslide.vendor'),
      width: Number(properties.get('openslide.level[0].width')),
      height: Number(properties.get('openslide.level[0].height')),
      magnification: Number(properties.get('openslide.objective-power')),
      scannedIn: `${properties.get('tiff.Make')} ${properties.get('tiff.Model')}`,
      scannedAt: new Date('2024-05-06T07:08:09Z'),
      resolution: {
        x: 10_000 / Number(properties.get('openslide.mpp-x')),
        y: 10_000 / Number(properties.get('openslide.mpp-y')),
        unit: 'dpc',
      },
    });
    expect(properties.get('tiff.DateTime')).toBe('2024:05:06 07:08:09');
    expect(result.associated.map(({ kind, width }) => [kind, width])).toEqual([['macro', 1191]]);
  }, 60_000);

  it('leaves a level 0 past 65,535 px to OpenSlide', async () => {
    const { pyramidInputs, headerRead } = await convertTraced(files.wide!);
    expect(pyramidInputs).toEqual(['source.tif[rgb]']);
    expect(headerRead).toBe(true);
  }, 60_000);

  it('leaves to OpenSlide a level 0 libjpeg finds fault with', async () => {
    // Restart markers out of their order: libjpeg warns and resynchronises, OpenSlide reads segment by segment.
    const shuffled = await damagedCopy('restart-order', (bytes) => {
      const marker = bytes.indexOf(Buffer.from([0xff, 0xd3]));
      bytes[marker + 1] = 0xd5;
    });
    const { result, pyramidInputs, withoutModules } = await convertTraced(shuffled);
    expect(pyramidInputs).toEqual(['stdin[fail-on=warning]', 'source.tif[rgb]']);
    expect(withoutModules).toEqual([true, false]);
    expect(result.format).toBe('hamamatsu');
  }, 60_000);
});
