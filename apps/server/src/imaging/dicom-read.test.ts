import { copyFile, open, readdir, rm, truncate, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readDicomInstance, type DicomInstance } from './dicom-read.ts';
import { assembleSlide } from './dicom-read-slide.ts';
import { ctSlice, dicomizerSlide, tiffToDicomSlide, zipFiles } from './dicom-read.test-support.ts';
import { dicomZipInstances } from './dicom-zip.ts';
import { tempDir } from './pyramid.test-support.ts';

let dir: string;
beforeAll(async () => {
  dir = await tempDir('dicom-read');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const readAll = (files: string[]) => Promise.all(files.map((file) => readDicomInstance(file, path.basename(file))));

async function frameBytes(instance: DicomInstance, index: number): Promise<Buffer> {
  const handle = await open(instance.file, 'r');
  try {
    const [part] = instance.frames[index]!;
    const bytes = Buffer.alloc(part!.length);
    await handle.read(bytes, 0, bytes.length, part!.offset);
    return bytes;
  } finally {
    await handle.close();
  }
}

describe('reading DICOM whole-slide instances', () => {
  it("reads TIFFToDicom's TILED_FULL volume, its label, overview and thumbnail, and the slide's metadata", async () => {
    const instances = await readAll(await tiffToDicomSlide());
    const flavours = instances.map((instance) => instance.flavour).sort();
    expect(flavours).toEqual(['LABEL', 'OVERVIEW', 'THUMBNAIL', 'VOLUME']);
    const volume = instances.find((instance) => instance.flavour === 'VOLUME')!;
    expect(volume).toMatchObject({
      coding: 'jpeg',
      organization: 'TILED_FULL',
      positions: null,
      rows: 240,
      columns: 240,
      totalColumns: 2220,
      totalRows: 2967,
      numberOfFrames: 130,
      objectivePower: 20,
      manufacturer: 'Aperio',
      model: 'ScanScope',
    });
    expect(volume.pixelSpacingMm).toEqual([0.000499, 0.000499]);
    expect(volume.acquired?.toISOString()).toBe('2009-12-29T09:59:15.000Z');
    expect(volume.frames).toHaveLength(130);
    // Each frame is a complete JPEG: SOI first, EOI last (before the pad byte that makes a fragment's length even).
    const frame = await frameBytes(volume, 129);
    expect(frame.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect(frame.subarray(-3).includes(Buffer.from([0xff, 0xd9]))).toBe(true);
    const label = instances.find((instance) => instance.flavour === 'LABEL')!;
    expect(label).toMatchObject({ coding: 'native', numberOfFrames: 1, photometric: 'RGB' });
    expect(label.frames[0]![0]!.length).toBe(label.rows * label.columns * 3);
  });

  it("places the Dicomizer's TILED_SPARSE frames from their plane positions, levels split over instances in order", async () => {
    const files = await dicomizerSlide({ tileSize: 240, compression: 'jpeg', maxSizeMb: 1, pyramid: true });
    const slide = assembleSlide(await readAll(files));
    expect(slide.levels.map((level) => [level.width, level.height])).toEqual([
      [2220, 2967],
      [1110, 1484],
      [555, 742],
      [278, 371],
      [139, 186],
    ]);
    const [base] = slide.levels;
    // --max-size 1 splits the base level into a concatenation of two instances (104 + 26 frames).
    expect(base!.instances.map((instance) => instance.numberOfFrames).sort((a, b) => a - b)).toEqual([26, 104]);
    expect(base!.instances.every((instance) => instance.positions !== null)).toBe(true);
    expect(base).toMatchObject({ tileWidth: 240, tilesAcross: 10, tilesDown: 13 });
    expect(base!.tiles.size).toBe(130);
    // Both parts of the concatenation fill the grid; the last tile is the bottom-right frame, wherever it is stored.
    expect(new Set([...base!.tiles.values()].map((placed) => placed.instance)).size).toBe(2);
    const last = base!.tiles.get(129)!;
    expect(last.instance.positions?.[last.instance.frames.indexOf(last.frame)]).toEqual({ x: 2160, y: 2880 });
  });

  it('orders levels whose ratio is no power of two, largest first', async () => {
    const files = await dicomizerSlide({ tileSize: 256, compression: 'jpeg', thirds: true });
    const slide = assembleSlide((await readAll(files)).reverse());
    expect(slide.levels.map((level) => [level.width, level.height, level.tiles.size])).toEqual([
      [2220, 2967, 9 * 12],
      [740, 989, 3 * 4],
    ]);
  });

  it('reads JPEG 2000 frames of 256 px and uncompressed frames in implicit VR', async () => {
    const [j2k] = await readAll(await dicomizerSlide({ tileSize: 256, compression: 'jpeg2000' }));
    expect(j2k).toMatchObject({ coding: 'jpeg2000', rows: 256, totalColumns: 2220, numberOfFrames: 9 * 12 });
    expect((await frameBytes(j2k!, 0)).subarray(0, 4)).toEqual(Buffer.from([0xff, 0x4f, 0xff, 0x51]));
    const crop = { left: 600, top: 700, width: 700, height: 500 };
    const [native] = await readAll(await dicomizerSlide({ tileSize: 256, compression: 'none', crop }));
    expect(native).toMatchObject({ coding: 'native', totalColumns: 700, totalRows: 500, numberOfFrames: 6 });
    expect(native!.frames[5]![0]!.length).toBe(256 * 256 * 3);
  });

  it('reads the header and the frame table by ranges, never the whole file', async () => {
    const [file] = await dicomizerSlide({ tileSize: 256, compression: 'jpeg2000' });
    const handle = await open(file!, 'r');
    const { size } = await handle.stat();
    const prototype = Object.getPrototypeOf(handle) as FileHandle;
    await handle.close();
    const read = vi.spyOn(prototype, 'read');
    try {
      const instance = await readDicomInstance(file!, 'slide.dcm');
      expect(instance.frames).toHaveLength(108);
      // read(buffer, offset, length, position): the third argument is how many bytes one read asks for.
      const lengths = read.mock.calls.map((args: unknown[]) => (typeof args[2] === 'number' ? args[2] : 0));
      expect(lengths.length).toBeGreaterThan(108);
      expect(Math.max(...lengths)).toBeLessThanOrEqual(64 * 1024);
      expect(size).toBeGreaterThan(8 * 64 * 1024);
    } finally {
      read.mockRestore();
    }
  });

  it('reads the instances of a zip stored without compression where they lie, and extracts deflated ones', async () => {
    const files = await dicomizerSlide({ tileSize: 256, compression: 'jpeg' });
    const names = files.map((file) => path.basename(file));
    const stored = await zipFiles(path.join(dir, 'stored.zip'), files, names, false);
    const deflated = await zipFiles(path.join(dir, 'deflated.zip'), files, names);
    const inPlace = await dicomZipInstances(stored, path.join(dir, 'stored'));
    expect(inPlace.map((source) => source.file)).toEqual(files.map(() => stored));
    expect(await readdir(path.join(dir, 'stored'))).toEqual([]);
    const extracted = await dicomZipInstances(deflated, path.join(dir, 'deflated'));
    expect(await readdir(path.join(dir, 'deflated'))).toHaveLength(files.length);

    const read = (sources: typeof inPlace) =>
      Promise.all(sources.map((source) => readDicomInstance(source.file, source.name, source.span)));
    const [fromZip, fromFiles] = await Promise.all([read(inPlace), read(extracted)]);
    for (const [index, instance] of fromZip.entries()) {
      const twin = fromFiles[index]!;
      const shape = (read: DicomInstance) => [read.totalColumns, read.totalRows, read.frames.length];
      expect(shape(instance)).toEqual(shape(twin));
      for (const frame of [0, instance.frames.length - 1]) {
        expect((await frameBytes(instance, frame)).equals(await frameBytes(twin, frame))).toBe(true);
      }
    }
  });

  it('refuses a CT slice, and a truncated file, saying what is wrong', async () => {
    const [ct] = await ctSlice();
    await expect(readDicomInstance(ct!, 'ct.dcm')).rejects.toThrow(
      'DICOM ct.dcm: not a whole-slide image (SOP class 1.2.840.10008.5.1.4.1.1.2, CT Image Storage)',
    );
    const volume = (await readAll(await tiffToDicomSlide())).find((instance) => instance.flavour === 'VOLUME')!;
    const cut = path.join(dir, 'cut.dcm');
    await copyFile(volume.file, cut);
    await truncate(cut, volume.frames[60]![0]!.offset + 100);
    await expect(readDicomInstance(cut, 'slide.dcm')).rejects.toThrow(
      'DICOM slide.dcm: the file is truncated: it holds 60 complete frames of 130',
    );
    await truncate(cut, 2000);
    await expect(readDicomInstance(cut, 'slide.dcm')).rejects.toThrow(
      /DICOM slide.dcm: the file is truncated or damaged/,
    );
  });

  it('refuses instances of two slides together, and a level missing a part of its concatenation', async () => {
    const [tiffToDicom, dicomizer] = await Promise.all([
      tiffToDicomSlide().then(readAll),
      dicomizerSlide({ tileSize: 240, compression: 'jpeg', maxSizeMb: 1, pyramid: true }).then(readAll),
    ]);
    expect(() => assembleSlide([...tiffToDicom, ...dicomizer])).toThrow(
      /the upload holds instances of 2 different slides/,
    );
    const j2k = await dicomizerSlide({ tileSize: 256, compression: 'jpeg2000', maxSizeMb: 1 }).then(readAll);
    const parts = j2k.filter((instance) => instance.totalColumns === 2220);
    expect(parts.length).toBeGreaterThan(2);
    const middle = parts.find((instance) => instance.concatenation?.number === 2)!;
    expect(() => assembleSlide(j2k.filter((instance) => instance !== middle))).toThrow(
      /the series misses frames: level 2220×2967 lacks frames \d+ to \d+ \(a part of its concatenation is missing\)/,
    );
  });
});
