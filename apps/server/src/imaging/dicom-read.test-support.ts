import { execFileSync } from 'node:child_process';
import { createWriteStream, existsSync, writeFileSync } from 'node:fs';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import sharp from 'sharp';
import yazl from 'yazl';
import { slidePath } from '#test/testdata.ts';
import { writeJpegTiledTiff } from './tiled-tiff-writer.ts';

/**
 * DICOM whole-slide files made from the shared test slide by the two converters scanners' users meet,
 * OrthancWSIDicomizer and pixelmed's TIFFToDicom (never written by hand). They are made once per machine
 * and kept under the system's temp folder: each variant takes a second or a few.
 */
const CACHE = path.join(os.tmpdir(), 'pathology-dicom-wsi-v1');
const OPENSLIDE_LIBRARY = '/usr/lib/x86_64-linux-gnu/libopenslide.so.0';
export const SOURCE_SLIDE = 'CMU-1-Small-Region.svs';

async function cached(name: string, make: (dir: string) => void): Promise<string[]> {
  const dir = path.join(CACHE, name);
  if (!existsSync(dir)) {
    const partial = `${dir}.${process.pid}.partial`;
    await rm(partial, { recursive: true, force: true });
    await mkdir(partial, { recursive: true });
    make(partial);
    await rename(partial, dir).catch(async (error: unknown) => {
      // Another test file made the same variant meanwhile; theirs is as good as ours.
      await rm(partial, { recursive: true, force: true });
      if (!existsSync(dir)) throw error;
    });
  }
  return (await readdir(dir))
    .filter((file) => file.endsWith('.dcm'))
    .sort()
    .map((file) => path.join(dir, file));
}

function run(command: string, args: string[], cwd?: string): void {
  execFileSync(command, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'], timeout: 120_000 });
}

/** The test slide as a plain tiled pyramidal TIFF, which the Dicomizer reads without OpenSlide at any tile size. */
async function tiledTiff(tileSize: number, crop?: { left: number; top: number; width: number; height: number }) {
  const name = crop ? `tiff-${tileSize}-${crop.left}-${crop.top}-${crop.width}x${crop.height}` : `tiff-${tileSize}`;
  const dir = path.join(CACHE, name);
  const file = path.join(dir, 'slide.tif');
  if (!existsSync(file)) {
    await mkdir(dir, { recursive: true });
    const options = `[tile,pyramid,compression=jpeg,Q=95,tile-width=${tileSize},tile-height=${tileSize}]`;
    const partial = `${file}.${process.pid}.tif`;
    const source = `${slidePath(SOURCE_SLIDE)}[rgb]`;
    if (crop) {
      const { left, top, width, height } = crop;
      run('vips', ['crop', source, partial + options, ...[left, top, width, height].map(String)]);
    } else {
      run('vips', ['copy', source, partial + options]);
    }
    await rename(partial, file);
  }
  return file;
}

/**
 * The test slide as a TIFF of two levels, the second a third of the first (not a halving), written by
 * our own JPEG-tiled TIFF writer, as the Dicomizer's input for levels whose ratio is no power of two.
 */
async function thirdsTiff(tileSize: number): Promise<string> {
  const dir = path.join(CACHE, `thirds-${tileSize}`);
  const file = path.join(dir, 'slide.tif');
  if (existsSync(file)) return file;
  await mkdir(dir, { recursive: true });
  const full = await tiledTiff(tileSize);
  const base = sharp(full, { page: 0 });
  const { width, height } = await base.metadata();
  const third = { width: Math.ceil(width / 3), height: Math.ceil(height / 3) };
  const levels = await Promise.all(
    [{ width, height }, third].map(async (size) => ({
      ...size,
      pixels: await sharp(full, { page: 0 }).resize(size.width, size.height).raw().toBuffer(),
    })),
  );
  async function* tiles(level: (typeof levels)[number]): AsyncGenerator<Buffer> {
    for (let top = 0; top < level.height; top += tileSize) {
      for (let left = 0; left < level.width; left += tileSize) {
        const w = Math.min(tileSize, level.width - left);
        const h = Math.min(tileSize, level.height - top);
        yield sharp(level.pixels, { raw: { width: level.width, height: level.height, channels: 3 } })
          .extract({ left, top, width: w, height: h })
          .extend({ right: tileSize - w, bottom: tileSize - h, background: '#ffffff' })
          .jpeg({ quality: 95, chromaSubsampling: '4:4:4' })
          .toBuffer();
      }
    }
  }
  const partial = `${file}.${process.pid}.tif`;
  await writeJpegTiledTiff(
    partial,
    tileSize,
    levels.map((level) => ({ width: level.width, height: level.height, tiles: tiles(level) })),
  );
  await rename(partial, file);
  return file;
}

export interface DicomizerOptions {
  tileSize: number;
  compression: 'jpeg' | 'jpeg2000' | 'none';
  /** MB per instance: a small value splits a level into a concatenation of instances. */
  maxSizeMb?: number;
  /** Levels built by the Dicomizer itself (halvings), rather than those of its input. */
  pyramid?: boolean;
  crop?: { left: number; top: number; width: number; height: number };
  /** Levels of 1 and 1/3 (from a TIFF of ours) instead of the halvings of the test slide. */
  thirds?: boolean;
  /**
   * Frames the Dicomizer codes itself (JFIF YCbCr 4:2:0, as scanners' YBR_FULL_422), cut from a TIFF of tiles
   * twice the size (it cuts only divisors), rather than the input's own tiles, which it copies where they fit.
   */
  recoded?: boolean;
}

/** Dicomizer's dataset: the scanner fields it otherwise leaves out (ImageType among them). */
const DICOMIZER_DATASET = {
  Manufacturer: 'Orthanc',
  ManufacturerModelName: 'WSI Dicomizer',
  ImageType: 'ORIGINAL\\PRIMARY\\VOLUME\\NONE',
};

/**
 * OrthancWSIDicomizer's instances (TILED_SPARSE, one PlanePositionSlide per frame). Tiles of 240 px
 * come from the SVS through OpenSlide as they are; other sizes are cut from a tiled TIFF of the slide.
 */
export async function dicomizerSlide(options: DicomizerOptions): Promise<string[]> {
  const { tileSize, compression, maxSizeMb = 0, pyramid = false, crop, thirds = false, recoded = false } = options;
  const cropName = crop ? `-crop${crop.width}x${crop.height}` : '';
  const thirdsName = thirds ? '-thirds' : '';
  const recodedName = recoded ? '-recoded' : '';
  const name = `dicomizer-${tileSize}-${compression}-${maxSizeMb}mb${pyramid ? '-pyramid' : ''}${cropName}${thirdsName}${recodedName}`;
  const source = existsSync(path.join(CACHE, name)) ? '' : await dicomizerInput(options);
  return cached(name, (dir) => {
    const datasetFile = path.join(dir, 'dataset.json');
    writeFileSync(datasetFile, JSON.stringify(DICOMIZER_DATASET));
    run('OrthancWSIDicomizer', [
      ...(source.endsWith('.svs') ? ['--openslide', OPENSLIDE_LIBRARY] : []),
      '--dataset',
      datasetFile,
      '--folder',
      dir,
      '--tile-width',
      String(tileSize),
      '--tile-height',
      String(tileSize),
      '--compression',
      compression,
      '--max-size',
      String(maxSizeMb),
      '--pyramid',
      pyramid ? '1' : '0',
      source,
    ]);
  });
}

/** Tiles of 240 px come from the SVS through OpenSlide as they are; other sizes are cut from a tiled TIFF of it. */
function dicomizerInput({ tileSize, crop, thirds, recoded }: DicomizerOptions): Promise<string> {
  if (thirds) return thirdsTiff(tileSize);
  if (recoded) return tiledTiff(tileSize * 2, crop);
  if (tileSize === 240 && !crop) return Promise.resolve(slidePath(SOURCE_SLIDE));
  return tiledTiff(tileSize, crop);
}

/**
 * pixelmed's TIFFToDicom of the SVS: TILED_FULL JPEG frames as the SVS holds them, its label, overview
 * and thumbnail as uncompressed single-frame instances, objective power and pixel spacing from the
 * Aperio description. With `tileSize`, of the slide as a tiled TIFF of that tile size instead: photometric
 * RGB frames of that size, the JPEGs libvips wrote (RGB with an Adobe marker at its quality 95).
 */
export async function tiffToDicomSlide(options: { tileSize?: number } = {}): Promise<string[]> {
  const { tileSize } = options;
  const name = tileSize == null ? 'tifftodicom' : `tifftodicom-${tileSize}`;
  const source =
    tileSize == null || existsSync(path.join(CACHE, name)) ? slidePath(SOURCE_SLIDE) : await tiledTiff(tileSize);
  return cached(name, (dir) => {
    const metadata = path.join(dir, 'metadata.json');
    writeFileSync(
      metadata,
      JSON.stringify({
        options: { AppendToContributingEquipmentSequence: false },
        top: { PatientID: 'T1', PatientName: 'Test^Slide', Manufacturer: 'Aperio', ManufacturerModelName: 'ScanScope' },
      }),
    );
    run('TIFFToDicom', [metadata, source, 'slide', 'SM', '1.2.840.10008.5.1.4.1.1.77.1.6'], dir);
  });
}

/** A CT slice (a Secondary Capture of a corner of the slide, relabelled CT): DICOM, but no whole-slide image. */
export function ctSlice(): Promise<string[]> {
  return cached('ct-slice', (dir) => {
    const jpeg = path.join(dir, 'corner.jpg');
    run('vips', ['crop', slidePath(SOURCE_SLIDE), jpeg, '0', '0', '64', '64']);
    const dcm = path.join(dir, 'ct.dcm');
    run('img2dcm', [jpeg, dcm]);
    run('dcmodify', ['-nb', '-i', '(0008,0016)=1.2.840.10008.5.1.4.1.1.2', '-i', '(0008,0060)=CT', dcm]);
  });
}

/** A zip of `files` (stored under their base names unless `names` says otherwise) at `target`. */
/** A zip of `files` (under `names`), deflated as desktop zip tools do, or stored as they are with `compress: false`. */
export async function zipFiles(target: string, files: string[], names?: string[], compress = true): Promise<string> {
  const zip = new yazl.ZipFile();
  files.forEach((file, index) => zip.addFile(file, names?.[index] ?? path.basename(file), { compress }));
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(target));
  return target;
}

export async function writeBytes(target: string, bytes: Buffer): Promise<string> {
  await writeFile(target, bytes);
  return target;
}
