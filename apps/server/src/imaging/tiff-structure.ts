import type { FileHandle } from 'node:fs/promises';
import { UnsupportedImageError } from './errors.ts';
import { decodeValues, TYPE_SIZES, type TiffTagValue } from './tiff-values.ts';

/** Positional reads of a file or blob; lets a tile server read TIFFs from other stores than local files. */
export interface ByteReader {
  size: number;
  read(position: number, length: number): Promise<Buffer>;
}

export type { TiffTagValue };

export interface TiffTag {
  type: number;
  count: number;
  /** Numbers for integer and float types (rationals as numerator/denominator), text for ASCII, bytes for UNDEFINED. */
  value: TiffTagValue;
}

export interface TiffPage {
  /** Position in the IFD chain; for a SubIFD, its parent's. */
  index: number;
  /** Position among its parent's SubIFDs (tag 330): the reduced levels of an OME-TIFF pyramid. */
  subIfd?: number;
  /** File offset of this IFD. */
  offset: number;
  width: number;
  height: number;
  tileWidth: number | null;
  tileHeight: number | null;
  rowsPerStrip: number | null;
  compression: number;
  photometric: number | null;
  bitsPerSample: number[];
  /** 1 unsigned, 2 signed, 3 float (TIFF 6.0 default 1). */
  sampleFormat: number[];
  samplesPerPixel: number;
  planarConfiguration: number;
  imageDescription: string | null;
  /** NewSubfileType bits: 1 reduced resolution, 2 page of multi-page, 4 mask. */
  subfileType: number;
  tileOffsets: number[];
  tileByteCounts: number[];
  stripOffsets: number[];
  stripByteCounts: number[];
  /** Abbreviated JPEG tables stream (SOI … EOI), shared by every JPEG tile of the page. */
  jpegTables: Buffer | null;
  /** Hamamatsu NDPI marker tag 65420 (its presence identifies NDPI). */
  ndpiMarker: number | null;
  xResolution: number | null;
  yResolution: number | null;
  /** 1 none, 2 inch, 3 centimetre. */
  resolutionUnit: number;
  dateTime: string | null;
  tags: Map<number, TiffTag>;
}

export interface TiffStructure {
  littleEndian: boolean;
  bigTiff: boolean;
  /** Hamamatsu NDPI: a classic TIFF whose offsets reach past 4 GiB (see readTiffStructure). */
  ndpi: boolean;
  size: number;
  pages: TiffPage[];
}

export const TIFF_TAG = {
  NewSubfileType: 254,
  ImageWidth: 256,
  ImageLength: 257,
  BitsPerSample: 258,
  Compression: 259,
  Photometric: 262,
  ImageDescription: 270,
  Make: 271,
  Model: 272,
  StripOffsets: 273,
  Orientation: 274,
  SamplesPerPixel: 277,
  RowsPerStrip: 278,
  StripByteCounts: 279,
  XResolution: 282,
  YResolution: 283,
  PlanarConfiguration: 284,
  ResolutionUnit: 296,
  DateTime: 306,
  TileWidth: 322,
  TileLength: 323,
  TileOffsets: 324,
  TileByteCounts: 325,
  SubIFDs: 330,
  SampleFormat: 339,
  JPEGTables: 347,
  YCbCrSubSampling: 530,
  NdpiMarker: 65420,
  NdpiSourceLens: 65421,
  NdpiZOffset: 65424,
  NdpiMcuStarts: 65426,
} as const;

/** Compression 7: JPEG per TIFF Technical Note 2 (tiles are JPEG streams, tables optionally shared). */
export const JPEG_COMPRESSION = 7;

// Real files have < 100 tags per IFD and a few thousand IFDs at most (OME z/c/t stacks);
// anything beyond these is a hostile or corrupt file, refused before we allocate for it.
const MAX_TAGS_PER_IFD = 4096;
const MAX_PAGES = 100_000;
const MAX_VALUE_BYTES = 256 * 1024 * 1024;
const FOUR_GIB = 2 ** 32;
/**
 * NDPI is classic TIFF whose header and next-IFD pointers are 8 bytes wide and whose every IFD is
 * followed by one 4-byte word per entry: the high 32 bits of that entry's value or offset.
 */
const NDPI_LAYOUT: Layout = { countSize: 2, entrySize: 12, offsetSize: 4, ndpi: true };

export function fileHandleReader(handle: FileHandle, size: number): ByteReader {
  return {
    size,
    async read(position, length) {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, position);
      return bytesRead === length ? buffer : buffer.subarray(0, bytesRead);
    },
  };
}

function isFileHandle(source: FileHandle | ByteReader): source is FileHandle {
  return 'fd' in source;
}

function corrupt(message: string): UnsupportedImageError {
  return new UnsupportedImageError(`Invalid TIFF: ${message}`);
}

/**
 * Reads the header and the whole IFD chain (tag values included) of a classic or BigTIFF file, either
 * byte order, and of an NDPI file (its offsets past 4 GiB included).
 */
export async function readTiffStructure(source: FileHandle | ByteReader): Promise<TiffStructure> {
  const reader = isFileHandle(source) ? fileHandleReader(source, (await source.stat()).size) : source;
  const header = await readHeader(reader);
  const { bytes } = header;
  const ndpi = await isNdpi(reader, header);
  const layout = ndpi ? NDPI_LAYOUT : header.layout;
  const pages: TiffPage[] = [];
  const seen = new Set<number>();
  let offset = ndpi ? header.wideOffset! : header.firstOffset;
  while (offset !== 0) {
    if (seen.has(offset)) throw corrupt(`IFD chain loops back to offset ${offset}`);
    if (pages.length >= MAX_PAGES) throw corrupt(`more than ${MAX_PAGES} IFDs`);
    seen.add(offset);
    const { tags, next } = await readDirectory(reader, bytes, layout, offset);
    pages.push(toPage(pages.length, offset, tags));
    offset = next;
  }
  if (pages.length === 0) throw corrupt('no image directory');
  return { littleEndian: bytes.littleEndian, bigTiff: layout.offsetSize === 8, ndpi, size: reader.size, pages };
}

/** As OpenSlide decides: the header's offset read as 8 bytes leads to a directory with the NDPI marker tag. */
async function isNdpi(reader: ByteReader, header: Header): Promise<boolean> {
  if (header.wideOffset === null) return false;
  try {
    const { tags } = await readDirectory(reader, header.bytes, NDPI_LAYOUT, header.wideOffset);
    return tags.has(TIFF_TAG.NdpiMarker);
  } catch {
    return false;
  }
}

/** Tags of the directory at `offset`, for sub-IFDs reached through a pointer tag (EXIF 34665, SubIFDs 330). */
export async function readTiffDirectoryAt(reader: ByteReader, offset: number): Promise<Map<number, TiffTag>> {
  const { bytes, layout } = await readHeader(reader);
  return (await readDirectory(reader, bytes, layout, offset)).tags;
}

/**
 * The SubIFDs of a page (OME-TIFF keeps a plane's reduced resolutions there), as pages of their own that
 * keep the parent's index; none when the page has no SubIFDs tag.
 */
export async function readSubIfdPages(reader: ByteReader, parent: TiffPage): Promise<TiffPage[]> {
  const offsets = parent.tags.get(TIFF_TAG.SubIFDs)?.value;
  if (!Array.isArray(offsets) || offsets.length === 0) return [];
  if (offsets.length > MAX_PAGES) throw corrupt(`more than ${MAX_PAGES} SubIFDs`);
  const { bytes, layout } = await readHeader(reader);
  const pages: TiffPage[] = [];
  for (const [position, offset] of offsets.entries()) {
    const { tags } = await readDirectory(reader, bytes, layout, offset);
    pages.push({ ...toPage(parent.index, offset, tags), subIfd: position });
  }
  return pages;
}

interface Header {
  bytes: Bytes;
  layout: Layout;
  firstOffset: number;
  /** A classic TIFF's first offset read as 8 bytes, as NDPI writes it (null when out of range). */
  wideOffset: number | null;
}

async function readHeader(reader: ByteReader): Promise<Header> {
  const header = await readExact(reader, 0, Math.min(16, reader.size));
  if (header.length < 8) throw corrupt('file too short');
  const order = header.toString('latin1', 0, 2);
  if (order !== 'II' && order !== 'MM') throw corrupt('no byte-order mark');
  const bytes = new Bytes(order === 'II');
  const magic = bytes.u16(header, 2);
  if (magic === 42) {
    // Scanners write NDPI little-endian only.
    const wideOffset =
      bytes.littleEndian && header.length >= 12 ? bytes.u32(header, 8) * FOUR_GIB + bytes.u32(header, 4) : null;
    return {
      bytes,
      layout: { countSize: 2, entrySize: 12, offsetSize: 4 },
      firstOffset: bytes.u32(header, 4),
      wideOffset: wideOffset !== null && wideOffset < reader.size ? wideOffset : null,
    };
  }
  if (magic !== 43) throw corrupt('bad magic number');
  if (header.length < 16 || bytes.u16(header, 4) !== 8 || bytes.u16(header, 6) !== 0)
    throw corrupt('bad BigTIFF header');
  return {
    bytes,
    layout: { countSize: 8, entrySize: 20, offsetSize: 8 },
    firstOffset: bytes.u64(header, 8),
    wideOffset: null,
  };
}

async function readDirectory(
  reader: ByteReader,
  bytes: Bytes,
  layout: Layout,
  offset: number,
): Promise<{ tags: Map<number, TiffTag>; next: number }> {
  checkRange(reader, offset, layout.countSize, 'IFD');
  const entryCount = bytes.uint(await readExact(reader, offset, layout.countSize), 0, layout.countSize);
  if (entryCount === 0 || entryCount > MAX_TAGS_PER_IFD) throw corrupt(`IFD at ${offset} has ${entryCount} entries`);
  const entriesEnd = entryCount * layout.entrySize;
  const blockLength = entriesEnd + (layout.ndpi ? 8 + 4 * entryCount : layout.offsetSize);
  checkRange(reader, offset + layout.countSize, blockLength, 'IFD');
  const block = await readExact(reader, offset + layout.countSize, blockLength);
  const tags = new Map<number, TiffTag>();
  for (let i = 0; i < entryCount; i++) {
    const entry = block.subarray(i * layout.entrySize, (i + 1) * layout.entrySize);
    const high = layout.ndpi ? bytes.u32(block, entriesEnd + 8 + 4 * i) : 0;
    const tag = await readTag(reader, bytes, entry, layout, high);
    if (tag !== null) tags.set(bytes.u16(entry, 0), tag);
  }
  const next = layout.ndpi ? bytes.u64(block, entriesEnd) : bytes.uint(block, entriesEnd, layout.offsetSize);
  return { tags, next };
}

interface Layout {
  /** Width of an IFD's entry count (2 classic, 8 BigTIFF). */
  countSize: number;
  entrySize: number;
  /** Width of offsets, of an entry's value count and of its inline value field (4 classic, 8 BigTIFF). */
  offsetSize: number;
  ndpi?: boolean;
}

/** `high`: NDPI's high 32 bits of the entry's offset, or of its one LONG value (a strip offset or byte count). */
async function readTag(
  reader: ByteReader,
  bytes: Bytes,
  entry: Buffer,
  layout: Layout,
  high = 0,
): Promise<TiffTag | null> {
  const type = bytes.u16(entry, 2);
  const typeSize = TYPE_SIZES[type];
  if (typeSize === undefined) return null;
  // Inside an entry the count field is as wide as an offset (4 or 8), unlike the IFD's entry count.
  const count = bytes.uint(entry, 4, layout.offsetSize);
  const byteLength = count * typeSize;
  if (byteLength > MAX_VALUE_BYTES || byteLength > reader.size)
    throw corrupt(`tag ${bytes.u16(entry, 0)} claims ${count} values`);
  const valueField = 4 + layout.offsetSize;
  let data: Buffer;
  if (byteLength <= layout.offsetSize) {
    if (high !== 0 && type === 4 && count === 1) {
      return { type, count, value: [high * FOUR_GIB + bytes.u32(entry, valueField)] };
    }
    data = entry.subarray(valueField, valueField + byteLength);
  } else {
    const valueOffset = high * FOUR_GIB + bytes.uint(entry, valueField, layout.offsetSize);
    checkRange(reader, valueOffset, byteLength, `tag ${bytes.u16(entry, 0)}`);
    data = await readExact(reader, valueOffset, byteLength);
  }
  return { type, count, value: decodeValues(bytes, data, type, count) };
}

function toPage(index: number, offset: number, tags: Map<number, TiffTag>): TiffPage {
  const numbers = (tag: number): number[] => {
    const value = tags.get(tag)?.value;
    return Array.isArray(value) ? value : [];
  };
  const first = (tag: number): number | null => numbers(tag)[0] ?? null;
  const text = (tag: number): string | null => {
    const value = tags.get(tag)?.value;
    return typeof value === 'string' ? value : null;
  };
  const samplesPerPixel = first(TIFF_TAG.SamplesPerPixel) ?? 1;
  const jpegTables = tags.get(TIFF_TAG.JPEGTables)?.value;
  return {
    index,
    offset,
    // 0 when absent (e.g. an EXIF block read as TIFF); callers refuse empty images.
    width: first(TIFF_TAG.ImageWidth) ?? 0,
    height: first(TIFF_TAG.ImageLength) ?? 0,
    tileWidth: first(TIFF_TAG.TileWidth),
    tileHeight: first(TIFF_TAG.TileLength),
    rowsPerStrip: first(TIFF_TAG.RowsPerStrip),
    compression: first(TIFF_TAG.Compression) ?? 1,
    photometric: first(TIFF_TAG.Photometric),
    bitsPerSample: numbers(TIFF_TAG.BitsPerSample).length > 0 ? numbers(TIFF_TAG.BitsPerSample) : [1],
    sampleFormat: numbers(TIFF_TAG.SampleFormat).length > 0 ? numbers(TIFF_TAG.SampleFormat) : [1],
    samplesPerPixel,
    planarConfiguration: first(TIFF_TAG.PlanarConfiguration) ?? 1,
    imageDescription: text(TIFF_TAG.ImageDescription),
    subfileType: first(TIFF_TAG.NewSubfileType) ?? 0,
    tileOffsets: numbers(TIFF_TAG.TileOffsets),
    tileByteCounts: numbers(TIFF_TAG.TileByteCounts),
    stripOffsets: numbers(TIFF_TAG.StripOffsets),
    stripByteCounts: numbers(TIFF_TAG.StripByteCounts),
    jpegTables: Buffer.isBuffer(jpegTables) ? jpegTables : null,
    ndpiMarker: first(TIFF_TAG.NdpiMarker),
    xResolution: first(TIFF_TAG.XResolution),
    yResolution: first(TIFF_TAG.YResolution),
    resolutionUnit: first(TIFF_TAG.ResolutionUnit) ?? 2,
    dateTime: text(TIFF_TAG.DateTime),
    tags,
  };
}

function checkRange(reader: ByteReader, offset: number, length: number, what: string): void {
  if (!Number.isSafeInteger(offset) || offset < 8 || offset + length > reader.size) {
    throw corrupt(`${what} at offset ${offset} lies past the end of the file (${reader.size} bytes)`);
  }
}

async function readExact(reader: ByteReader, position: number, length: number): Promise<Buffer> {
  const data = await reader.read(position, length);
  if (data.length < length)
    throw corrupt(`file ends at ${position + data.length}, expected ${length} bytes at ${position}`);
  return data;
}

class Bytes {
  constructor(readonly littleEndian: boolean) {}
  u16(data: Buffer, at: number): number {
    return this.littleEndian ? data.readUInt16LE(at) : data.readUInt16BE(at);
  }
  u32(data: Buffer, at: number): number {
    return this.littleEndian ? data.readUInt32LE(at) : data.readUInt32BE(at);
  }
  u64(data: Buffer, at: number): number {
    const value = this.littleEndian ? data.readBigUInt64LE(at) : data.readBigUInt64BE(at);
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw corrupt(`64-bit value ${value} is out of range`);
    return Number(value);
  }
  uint(data: Buffer, at: number, size: number): number {
    if (size === 2) return this.u16(data, at);
    if (size === 4) return this.u32(data, at);
    return this.u64(data, at);
  }
}
