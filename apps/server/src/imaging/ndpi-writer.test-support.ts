/**
 * Writes Hamamatsu NDPI files as NanoZoomer scanners lay them out, from any picture sharp reads, so
 * that tests can give the converter and the tile server NDPI files that OpenSlide itself accepts:
 * a classic little-endian TIFF whose header and next-IFD pointers are 8 bytes wide; each level one
 * baseline JPEG in a single strip (RowsPerStrip = height) with restart markers, their positions in
 * McuStarts (65426); the private tags 65420 onwards; a macro (source lens -1) and a map (-2).
 * Every value or offset keeps its high 32 bits in the 4-byte block after its IFD (read by OpenSlide
 * 4), and every IFD follows the data it points to, so OpenSlide 3.4.1's heuristic (the largest
 * offset below the IFD with the same low 32 bits) finds the same high bits.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, open, readFile, rm, type FileHandle } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { restartLayout } from './jpeg-restart-crop.ts';

const run = promisify(execFile);

export interface NdpiLevel {
  width: number;
  height: number;
  /** Restart interval in MCUs (8 px each in 4:4:4, 16 in 4:2:0); it must divide the MCUs across a row. */
  restartInterval: number;
  /** 4:2:0 chroma, which OpenSlide 3.4.1 cannot read at full scale (scanners write 4:4:4 or 4:2:2). */
  chroma420?: boolean;
  /** Focal plane in nm; OpenSlide reads only plane 0, the others are extra directories after it. */
  zOffset?: number;
}

export interface NdpiOptions {
  /** Any picture sharp reads (the pixels of every level are this picture resized). */
  source: string;
  /** Largest first, as scanners write them. */
  levels: NdpiLevel[];
  sourceLens?: number;
  /** Micrometres per pixel of level 0. */
  mpp?: number;
  /** Bytes left as a hole before the first level, to place the data past 4 GiB cheaply (a sparse file). */
  gapBefore?: number;
  reference?: string;
  /** Without: no macro directory. */
  macro?: boolean;
  quality?: number;
}

/** SOF and TIFF hold 16-bit sizes; libjpeg stops at 65,500 px a side. */
const JPEG_MAX = 65_500;
const FOUR_GIB = 2 ** 32;
/** The size of a NanoZoomer's macro picture of the whole glass. */
export const MACRO = { width: 1191, height: 408 };

interface Tag {
  tag: number;
  type: 2 | 3 | 4 | 5 | 9 | 11;
  values: number[] | string;
}

interface Directory {
  data: Buffer;
  tags: (stripOffset: number) => Tag[];
}

/** A JPEG of `picture` at `width`×`height` with restart markers, and the offsets of its restart segments. */
export async function restartJpeg(
  picture: string,
  { width, height, restartInterval, chroma420 = false }: NdpiLevel,
  quality = 90,
): Promise<{ jpeg: Buffer; mcuStarts: number[] }> {
  const segmentWidth = restartInterval * 8;
  // Wider than libjpeg goes: equal slices coded alike (same tables), joined segment by segment.
  const slices = width > JPEG_MAX ? Math.ceil(width / JPEG_MAX) : 1;
  const sliceWidth = width / slices;
  if (!Number.isInteger(sliceWidth / segmentWidth) && slices > 1) throw new Error('slices must hold whole segments');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'ndpi-level-'));
  try {
    const resized = path.join(dir, 'level.png');
    await sharp(picture, { limitInputPixels: false })
      .resize(width, height, { fit: 'fill' })
      .removeAlpha()
      .png({ compressionLevel: 1 })
      .toFile(resized);
    const jpegs: Buffer[] = [];
    const subsample = chroma420 ? 'on' : 'off';
    const options = `[Q=${quality},subsample-mode=${subsample},restart-interval=${restartInterval},strip]`;
    for (let slice = 0; slice < slices; slice++) {
      const out = path.join(dir, `slice-${slice}.jpg`);
      const cut = [slice * sliceWidth, 0, sliceWidth, height].map(String);
      await run('vips', ['crop', resized, `${out}${options}`, ...cut]);
      jpegs.push(await readFile(out));
    }
    return chroma420 ? { jpeg: jpegs[0]!, mcuStarts: restartStarts(jpegs[0]!) } : joinSlices(jpegs, width);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Joins JPEG slices of one height, row of blocks by row of blocks; the frame says width 0 past 65,535 px, as NDPI does. */
function joinSlices(jpegs: Buffer[], width: number): { jpeg: Buffer; mcuStarts: number[] } {
  const layouts = jpegs.map((jpeg) => {
    const layout = restartLayout(jpeg);
    if (layout == null) throw new Error('vips wrote no restart segments along the rows');
    return layout;
  });
  const first = layouts[0]!;
  const rows = Math.ceil(first.height / first.blockHeight);
  const parts: Buffer[] = [jpegs[0]!.subarray(0, first.data)];
  const mcuStarts: number[] = [];
  let length = first.data;
  let index = 0;
  for (let row = 0; row < rows; row++) {
    layouts.forEach((layout, slice) => {
      for (let column = 0; column < layout.segmentsAcross; column++) {
        const segment = row * layout.segmentsAcross + column;
        if (index > 0) {
          parts.push(Buffer.from([0xff, 0xd0 + ((index - 1) % 8)]));
          length += 2;
        }
        mcuStarts.push(length);
        const bytes = jpegs[slice]!.subarray(layout.starts[segment], layout.ends[segment]);
        parts.push(bytes);
        length += bytes.length;
        index++;
      }
    });
  }
  parts.push(Buffer.from([0xff, 0xd9]));
  const jpeg = Buffer.concat(parts);
  jpeg.writeUInt16BE(width > 0xffff ? 0 : width, first.frame + 7);
  return { jpeg, mcuStarts };
}

/** Where each restart segment's coded data begins: after the scan header, then after each RST marker. */
function restartStarts(jpeg: Buffer): number[] {
  const scan = jpeg.indexOf(Buffer.from([0xff, 0xda]));
  const starts = [scan + 2 + jpeg.readUInt16BE(scan + 2)];
  for (let at = starts[0]!; at < jpeg.length - 1; at++) {
    if (jpeg[at] === 0xff && jpeg[at + 1]! >= 0xd0 && jpeg[at + 1]! <= 0xd7) starts.push(at + 2);
  }
  return starts;
}

/** A JPEG without restart markers (macro and map pictures). */
async function plainJpeg(picture: string, width: number, height: number, grey = false): Promise<Buffer> {
  const image = sharp(picture, { limitInputPixels: false }).resize(width, height, { fit: 'fill' }).removeAlpha();
  return (grey ? image.greyscale() : image).jpeg({ quality: 90 }).toBuffer();
}

/** Writes the NDPI file; returns the strip offset of each directory (levels first, then macro and map). */
export async function writeNdpi(file: string, options: NdpiOptions): Promise<number[]> {
  const lens = options.sourceLens ?? 20;
  const mpp = options.mpp ?? 0.5;
  const base = options.levels[0]!;
  const directories: Directory[] = [];
  for (const level of options.levels) {
    const { jpeg, mcuStarts } = await restartJpeg(options.source, level, options.quality);
    const pxPerCm = (10_000 / mpp) * (level.width / base.width);
    directories.push({
      data: jpeg,
      tags: (strip) => [
        ...imageTags(level.width, level.height, strip, jpeg.length, pxPerCm, 'level'),
        ...hamamatsuTags(lens, level.zOffset ?? 0, options.reference ?? 'ndpi-writer'),
        { tag: 65426, type: 4, values: mcuStarts },
      ],
    });
  }
  const aspect = base.height / base.width;
  if (options.macro !== false) {
    const macro = await plainJpeg(options.source, MACRO.width, MACRO.height);
    directories.push({
      data: macro,
      tags: (strip) => [
        ...imageTags(MACRO.width, MACRO.height, strip, macro.length, 0, 'macro'),
        ...hamamatsuTags(-1, 0, options.reference ?? 'ndpi-writer'),
      ],
    });
  }
  const map = await plainJpeg(options.source, 192, Math.max(8, Math.round(192 * aspect)), true);
  directories.push({
    data: map,
    tags: (strip) => [
      ...imageTags(192, Math.max(8, Math.round(192 * aspect)), strip, map.length, 0, 'map', 1),
      ...hamamatsuTags(-2, 0, options.reference ?? 'ndpi-writer'),
    ],
  });
  return writeDirectories(file, directories, options.gapBefore ?? 0);
}

function imageTags(
  width: number,
  height: number,
  strip: number,
  bytes: number,
  pxPerCm: number,
  what: string,
  samples = 3,
): Tag[] {
  const tags: Tag[] = [
    { tag: 256, type: 4, values: [width] },
    { tag: 257, type: 4, values: [height] },
    { tag: 258, type: 3, values: samples === 3 ? [8, 8, 8] : [8] },
    { tag: 259, type: 3, values: [7] },
    { tag: 262, type: 3, values: [samples === 3 ? 6 : 1] },
    { tag: 270, type: 2, values: `ndpi-writer ${what}` },
    { tag: 271, type: 2, values: 'Hamamatsu' },
    { tag: 272, type: 2, values: 'C13220' },
    { tag: 273, type: 4, values: [strip] },
    { tag: 274, type: 3, values: [1] },
    { tag: 277, type: 3, values: [samples] },
    { tag: 278, type: 4, values: [height] },
    { tag: 279, type: 4, values: [bytes] },
    { tag: 296, type: 3, values: [3] },
    { tag: 305, type: 2, values: 'NDP.scan 3.2.15' },
    { tag: 306, type: 2, values: '2024:05:06 07:08:09' },
  ];
  if (pxPerCm > 0) {
    const scaled = Math.round(pxPerCm * 1000);
    tags.push({ tag: 282, type: 5, values: [scaled, 1000] }, { tag: 283, type: 5, values: [scaled, 1000] });
  }
  return tags;
}

function hamamatsuTags(lens: number, zOffset: number, reference: string): Tag[] {
  return [
    { tag: 65420, type: 4, values: [1] },
    { tag: 65421, type: 11, values: [lens] },
    { tag: 65422, type: 9, values: [-1_234_567] },
    { tag: 65423, type: 9, values: [2_345_678] },
    { tag: 65424, type: 9, values: [zOffset] },
    { tag: 65427, type: 2, values: reference },
    { tag: 65449, type: 2, values: 'Objective.Lens.Magnificant=20\r\nNDP.S/N=000000\r\n' },
  ];
}

const TYPE_SIZE = { 2: 1, 3: 2, 4: 4, 5: 8, 9: 4, 11: 4 } as const;

function tagBytes({ type, values }: Tag): Buffer {
  if (typeof values === 'string') return Buffer.from(`${values}\0`, 'latin1');
  const count = type === 5 ? values.length / 2 : values.length;
  const out = Buffer.alloc(count * TYPE_SIZE[type]);
  values.forEach((value, i) => {
    if (type === 3) out.writeUInt16LE(value, i * 2);
    else if (type === 9) out.writeInt32LE(value, i * 4);
    else if (type === 11) out.writeFloatLE(value, i * 4);
    else out.writeUInt32LE(value % FOUR_GIB, i * 4);
  });
  return out;
}

async function writeDirectories(file: string, directories: Directory[], gap: number): Promise<number[]> {
  const handle = await open(file, 'w');
  try {
    let position = 16 + gap;
    const strips: number[] = [];
    let previousNext = 4;
    for (const directory of directories) {
      const strip = position;
      strips.push(strip);
      await handle.write(directory.data, 0, directory.data.length, position);
      position += directory.data.length;
      const tags = directory.tags(strip).sort((a, b) => a.tag - b.tag);
      // Out-of-line values go before their IFD, where OpenSlide 3.4.1 looks for them.
      const fields = [];
      for (const tag of tags) {
        const bytes = tagBytes(tag);
        if (bytes.length <= 4) {
          const inline = Buffer.alloc(4);
          bytes.copy(inline);
          const high = tag.tag === 273 ? Math.floor(strip / FOUR_GIB) : 0;
          fields.push({ tag, count: countOf(tag), low: inline, high });
        } else {
          position += position % 2;
          await handle.write(bytes, 0, bytes.length, position);
          const low = Buffer.alloc(4);
          low.writeUInt32LE(position % FOUR_GIB);
          fields.push({ tag, count: countOf(tag), low, high: Math.floor(position / FOUR_GIB) });
          position += bytes.length;
        }
      }
      position += position % 2;
      const ifd = Buffer.alloc(2 + fields.length * 12 + 8 + fields.length * 4);
      ifd.writeUInt16LE(fields.length, 0);
      fields.forEach(({ tag, count, low, high }, i) => {
        ifd.writeUInt16LE(tag.tag, 2 + i * 12);
        ifd.writeUInt16LE(tag.type, 4 + i * 12);
        ifd.writeUInt32LE(count, 6 + i * 12);
        low.copy(ifd, 10 + i * 12);
        ifd.writeUInt32LE(high, 2 + fields.length * 12 + 8 + i * 4);
      });
      await handle.write(ifd, 0, ifd.length, position);
      await writePointer(handle, previousNext, position);
      previousNext = position + 2 + fields.length * 12;
      position += ifd.length;
    }
    await writePointer(handle, previousNext, 0);
    await handle.write(Buffer.from([0x49, 0x49, 42, 0]), 0, 4, 0);
    return strips;
  } finally {
    await handle.close();
  }
}

function countOf({ type, values }: Tag): number {
  if (typeof values === 'string') return values.length + 1;
  return type === 5 ? values.length / 2 : values.length;
}

/** The header's first-IFD offset and every next-IFD pointer are 8 bytes in NDPI. */
async function writePointer(handle: FileHandle, at: number, value: number): Promise<void> {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64LE(BigInt(value));
  await handle.write(bytes, 0, bytes.length, at);
}
