import { open, readFile, rm, writeFile, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Sharp } from 'sharp';
import { sharp } from './sharp-setup.ts';
import { remainingMs, type ConvertContext } from './context.ts';
import type { DicomFrame, DicomInstance } from './dicom-read.ts';
import type { DicomLevel } from './dicom-read-slide.ts';
import { UnsupportedImageError } from './errors.ts';
import { baselineJpegCoding, type JpegCoding } from './jpeg-frame.ts';
import { vips } from './vips-cli.ts';

/**
 * The intermediate tiles are kept nearly lossless: the pyramid re-encodes them once more at JPEG 94,
 * and the two steps together must stay within 3/255 of the scanner's frames.
 */
const INTERMEDIATE_QUALITY = 98;
/** Frames decoded at once: the machine's cores, not more, as each sharp call uses its own threads too. */
const PARALLEL_FRAMES = 4;
const WHITE = { r: 255, g: 255, b: 255 };
/** Enough of a frame's start for its JPEG markers up to the scan: tables and frame header take well under 1 KB. */
const HEAD_BYTES = 4096;

/** Open files of one conversion, each opened once, all closed by `close`. */
export class InstanceFiles {
  private readonly handles = new Map<string, Promise<FileHandle>>();

  async read(instance: DicomInstance, frame: DicomFrame): Promise<Buffer> {
    let handle = this.handles.get(instance.file);
    if (!handle) {
      handle = open(instance.file, 'r');
      this.handles.set(instance.file, handle);
    }
    const file = await handle;
    const parts = await Promise.all(
      frame.map(async ({ offset, length }) => {
        const bytes = Buffer.alloc(length);
        const { bytesRead } = await file.read(bytes, 0, length, offset);
        if (bytesRead < length) throw new UnsupportedImageError(`DICOM ${instance.name}: the file is truncated`);
        return bytes;
      }),
    );
    return parts.length === 1 ? (parts[0] ?? Buffer.alloc(0)) : Buffer.concat(parts);
  }

  /** The start of a frame (of its first fragment), for its JPEG markers. */
  async readHead(instance: DicomInstance, frame: DicomFrame): Promise<Buffer> {
    const [first] = frame;
    if (first == null) return Buffer.alloc(0);
    return this.read(instance, [{ offset: first.offset, length: Math.min(first.length, HEAD_BYTES) }]);
  }

  async close(): Promise<void> {
    const handles = await Promise.allSettled([...this.handles.values()]);
    await Promise.all(handles.flatMap((h) => (h.status === 'fulfilled' ? [h.value.close()] : [])));
  }
}

let jpeg2000Frames = 0;

/**
 * The coding of a JPEG baseline frame whose colours every browser and sharp decode as the instance means them,
 * so its bytes may be sent or stored as they are; null for any other frame. A JFIF or Adobe marker states the
 * colours in the frame itself, and decoders follow it (OrthancWSIDicomizer labels its Adobe RGB frames
 * YBR_FULL_422); without one, libjpeg guesses RGB from component ids 'R', 'G', 'B' and YCbCr from any others,
 * so the frame qualifies only where that guess is the photometric interpretation. Grey frames must be MONOCHROME2.
 */
export function jpegShownAsMeant(instance: DicomInstance, head: Buffer): JpegCoding | null {
  if (instance.coding !== 'jpeg') return null;
  const coding = baselineJpegCoding(head);
  if (coding == null) return null;
  if (coding.components === 1) return instance.photometric === 'MONOCHROME2' ? coding : null;
  if (coding.stated) return coding;
  const meant: Record<string, JpegCoding['colour'] | undefined> = {
    RGB: 'rgb',
    YBR_FULL: 'ycbcr',
    YBR_FULL_422: 'ycbcr',
  };
  return coding.colour === meant[instance.photometric] ? coding : null;
}

/**
 * One frame as sharp sees it. JPEG frames are JPEG files as they are; native frames are raw samples;
 * JPEG 2000 frames go through the vips command line (the libvips bundled with sharp has no OpenJPEG).
 */
export async function frameImage(
  context: ConvertContext,
  files: InstanceFiles,
  instance: DicomInstance,
  frame: DicomFrame,
): Promise<Sharp> {
  const bytes = await files.read(instance, frame);
  const where = `DICOM ${instance.name}`;
  switch (instance.coding) {
    case 'jpeg':
      return sharp(bytes, { failOn: 'error' });
    case 'native': {
      if (instance.bitsAllocated !== 8)
        throw new UnsupportedImageError(`${where}: ${instance.bitsAllocated}-bit samples`);
      const planar = instance.planarConfiguration === 1 && instance.samplesPerPixel > 1;
      const supported = ['RGB', 'MONOCHROME2'].includes(instance.photometric);
      if (planar || !supported || (instance.samplesPerPixel !== 1 && instance.samplesPerPixel !== 3)) {
        throw new UnsupportedImageError(
          `${where}: uncompressed ${instance.photometric} frames${planar ? ' in separate planes' : ''} cannot be read`,
        );
      }
      const channels = instance.samplesPerPixel;
      return sharp(bytes, { raw: { width: instance.columns, height: instance.rows, channels } });
    }
    case 'jpeg2000': {
      const name = `frame-${process.pid}-${jpeg2000Frames++}`;
      const input = path.join(context.workDir, `${name}.j2k`);
      const output = path.join(context.workDir, `${name}.png`);
      try {
        await writeFile(input, bytes);
        await vips(context, 'vips', ['pngsave', `${name}.j2k`, `${name}.png`, '--compression', '0']);
        return sharp(await readFile(output));
      } finally {
        await Promise.all([rm(input, { force: true }), rm(output, { force: true })]);
      }
    }
  }
}

/** A frame re-encoded as one tile of the intermediate level file: JPEG, YCbCr without subsampling, 3 channels. */
async function tileJpeg(image: Sharp): Promise<Buffer> {
  return image
    .flatten({ background: WHITE })
    .toColourspace('srgb')
    .jpeg({ quality: INTERMEDIATE_QUALITY, chromaSubsampling: '4:4:4' })
    .toBuffer();
}

/**
 * The tiles of one level in row order, each decoded from its frame and re-encoded; a tile no frame
 * covers (TILED_SPARSE leaves blank glass out) is white. Only a few frames are in memory at a time.
 */
export async function* levelTiles(
  context: ConvertContext,
  files: InstanceFiles,
  level: DicomLevel,
): AsyncGenerator<Buffer> {
  const blank = await tileJpeg(
    sharp({ create: { width: level.tileWidth, height: level.tileHeight, channels: 3, background: WHITE } }),
  );
  const count = level.tilesAcross * level.tilesDown;
  const tile = async (index: number): Promise<Buffer> => {
    const placed = level.tiles.get(index);
    if (!placed) return blank;
    remainingMs(context);
    const image = await frameImage(context, files, placed.instance, placed.frame);
    const { width, height } = await image.metadata();
    if (width !== level.tileWidth || height !== level.tileHeight) {
      throw new UnsupportedImageError(
        `DICOM ${placed.instance.name}: a frame of ${width}×${height} px in a level of ${level.tileWidth}×${level.tileHeight} px frames`,
      );
    }
    return tileJpeg(image);
  };
  const pending: Array<Promise<Buffer>> = [];
  let next = 0;
  while (next < count || pending.length > 0) {
    while (next < count && pending.length < PARALLEL_FRAMES) {
      const made = tile(next++);
      // Awaited in order below; a later tile's failure must not count as unhandled if an earlier one fails first.
      made.catch(() => undefined);
      pending.push(made);
    }
    const first = pending.shift();
    if (first) yield await first;
  }
}
