import { copyFile, open, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { convertImage, ImagingTimeoutError, readTiffStructure, UnsupportedImageError } from './index.ts';
import { expectJpegPyramid, slide, tempDir } from './pyramid.test-support.ts';
import { buildZip } from './zip-writer.test-support.ts';

const dirs: string[] = [];
async function workDir(): Promise<string> {
  const dir = await tempDir('hostile');
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A classic little-endian TIFF header with one IFD of the given SHORT/LONG tags, no pixel data. */
function craftTiff(tags: Array<[tag: number, type: 3 | 4, value: number]>, nextIfd = 0): Buffer {
  const ifdOffset = 8;
  const buffer = Buffer.alloc(ifdOffset + 2 + tags.length * 12 + 4 + 64);
  buffer.write('II', 0, 'latin1');
  buffer.writeUInt16LE(42, 2);
  buffer.writeUInt32LE(ifdOffset, 4);
  buffer.writeUInt16LE(tags.length, ifdOffset);
  tags.forEach(([tag, type, value], i) => {
    const at = ifdOffset + 2 + i * 12;
    buffer.writeUInt16LE(tag, at);
    buffer.writeUInt16LE(type, at + 2);
    buffer.writeUInt32LE(1, at + 4);
    if (type === 3) buffer.writeUInt16LE(value, at + 8);
    else buffer.writeUInt32LE(value, at + 8);
  });
  buffer.writeUInt32LE(nextIfd, ifdOffset + 2 + tags.length * 12);
  return buffer;
}

async function convertBytes(name: string, bytes: Buffer, timeoutMs = 30_000) {
  const dir = await workDir();
  const source = path.join(dir, name);
  await writeFile(source, bytes);
  return convertImage({ sourcePath: source, workDir: dir, timeoutMs });
}

describe('convertImage refuses hostile input', () => {
  it('refuses a TIFF header claiming 10^6 × 10^6 pixels before any decoder opens it', async () => {
    const huge = craftTiff([
      [256, 4, 1_000_000],
      [257, 4, 1_000_000],
      [258, 3, 8],
      [259, 3, 1],
      [262, 3, 1],
      [273, 4, 100],
      [278, 4, 1_000_000],
      [279, 4, 10],
    ]);
    await expect(convertBytes('huge.tif', huge)).rejects.toThrow(/1000000×1000000 pixels, above the limit/);
  });

  it('refuses an IFD chain that loops', async () => {
    const loop = craftTiff(
      [
        [256, 4, 10],
        [257, 4, 10],
      ],
      8,
    );
    await expect(convertBytes('loop.tif', loop)).rejects.toThrow(/loops back/);
  });

  it('refuses a TIFF whose IFD offset points past the end of the file', async () => {
    const bytes = craftTiff([[256, 4, 10]]);
    bytes.writeUInt32LE(10_000_000, 4);
    await expect(convertBytes('far.tif', bytes)).rejects.toThrow(UnsupportedImageError);
  });

  it('refuses an SVS cut in half, quickly and without crashing', async () => {
    const whole = await readFile(slide('CMU-1-Small-Region.svs'));
    const started = Date.now();
    const error = await convertBytes('half.svs', whole.subarray(0, whole.length / 2)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedImageError);
    expect((error as Error).message).toMatch(/past the end|truncated/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('refuses garbage bytes', async () => {
    await expect(convertBytes('garbage.svs', Buffer.from('definitely not an image'.repeat(50)))).rejects.toThrow(
      new UnsupportedImageError(
        'Unrecognised image content: not a TIFF, JPEG, PNG or DICOM file, a VSI or DICOM zip, or an iSyntax file',
      ),
    );
  });

  it('converts PNG bytes as a PNG whatever the name says', async () => {
    const png = await sharp({
      create: { width: 700, height: 90, channels: 4, background: { r: 0, g: 128, b: 255, alpha: 0.5 } },
    })
      .png()
      .toBuffer();
    const result = await convertBytes('looks-like.svs', png);
    expect(result).toMatchObject({ format: 'png', width: 700, height: 90, associated: [] });
    await expectJpegPyramid(result.layers[0]!.pyramidPath, 700, 90);
  });

  it('stores but does not convert VSI zips and iSyntax', async () => {
    const zip = buildZip([
      { name: 'a.vsi', data: Buffer.from('x') },
      { name: '_a_/stack1/frame_t.ets', data: Buffer.from('y') },
    ]);
    await expect(convertBytes('a.zip', zip)).rejects.toThrow(
      new UnsupportedImageError(
        'Olympus VSI conversion is not supported yet: no ETS reader was verified on a real file; the original is stored',
      ),
    );
    const isyntax = Buffer.from('<?xml version="1.0" encoding="UTF-8" ?>\r\n<DataObject ObjectType="DPUfsImport">\r\n');
    await expect(convertBytes('a.isyntax', isyntax)).rejects.toThrow(
      new UnsupportedImageError('Philips iSyntax cannot be converted: no open decoder exists; the original is stored'),
    );
  });

  it('stops a conversion whose time limit passes', async () => {
    const dir = await workDir();
    const started = Date.now();
    const error = await convertImage({
      sourcePath: slide('CMU-1-Small-Region.svs'),
      workDir: dir,
      timeoutMs: 30,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImagingTimeoutError);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('keeps odd characters in the source name away from vips', async () => {
    const dir = await workDir();
    const source = path.join(dir, 'slide [rgb] $(touch pwned) .svs');
    await copyFile(slide('CMU-1-Small-Region.svs'), source);
    const result = await convertImage({ sourcePath: source, workDir: dir, timeoutMs: 60_000 });
    expect(result.width).toBe(2220);
  });
});

describe('readTiffStructure', () => {
  it('reads a big-endian classic TIFF with signed samples', async () => {
    const handle = await open(slide('multi-channel-z-series.ome.tif'), 'r');
    const structure = await readTiffStructure(handle).finally(() => handle.close());
    expect(structure).toMatchObject({ littleEndian: false, bigTiff: false });
    expect(structure.pages).toHaveLength(15);
    expect(structure.pages[0]).toMatchObject({
      width: 439,
      height: 167,
      bitsPerSample: [8],
      sampleFormat: [2],
      samplesPerPixel: 1,
    });
  });
});
