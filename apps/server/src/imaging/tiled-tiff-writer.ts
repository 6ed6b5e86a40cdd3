import fs from 'node:fs/promises';
import { jpegComponents } from './jpeg-frame.ts';
import { JPEG_COMPRESSION, TIFF_TAG } from './tiff-structure.ts';

/** One page of a JPEG-tiled pyramid: its size and its tiles, row by row, each a complete JPEG. */
export interface JpegTiledLevel {
  width: number;
  height: number;
  tiles: AsyncIterable<Buffer>;
  /**
   * How the page's colour tiles are coded, which libtiff must be told (it refuses a tile sampled otherwise than
   * the page says, and decodes an RGB tile of a YCbCr page as YCbCr): YCbCr without subsampling unless said.
   */
  colours?: TileColours;
}

export interface TileColours {
  colour: 'ycbcr' | 'rgb';
  /** The luma's sampling factors [h, v] against chroma sampled once per MCU; [1, 1] for RGB. */
  subsampling: [number, number];
}

const SHORT = 3;
const LONG = 4;
const LONG8 = 16;
const PHOTOMETRIC_MINISBLACK = 1;
const PHOTOMETRIC_RGB = 2;
const PHOTOMETRIC_YCBCR = 6;
const HEADER_BYTES = 16;
const ENTRY_BYTES = 20;
const BATCH_BYTES = 4 * 1024 * 1024;

interface Entry {
  tag: number;
  type: typeof SHORT | typeof LONG | typeof LONG8;
  values: number[];
}

const TYPE_BYTES = { [SHORT]: 2, [LONG]: 4, [LONG8]: 8 } as const;

function writeValue(buffer: Buffer, type: Entry['type'], value: number, at: number): void {
  if (type === SHORT) buffer.writeUInt16LE(value, at);
  else if (type === LONG) buffer.writeUInt32LE(value, at);
  else buffer.writeBigUInt64LE(BigInt(value), at);
}

/**
 * An IFD at `offset`, with the values that do not fit in an entry placed right after it. Returns the
 * bytes and the position of its next-IFD pointer within them.
 */
function directory(entries: Entry[], offset: number): { bytes: Buffer; nextPointer: number } {
  const sorted = [...entries].sort((a, b) => a.tag - b.tag);
  const tableBytes = 8 + sorted.length * ENTRY_BYTES + 8;
  const outOfLine = sorted.reduce((sum, entry) => {
    const bytes = entry.values.length * TYPE_BYTES[entry.type];
    return bytes > 8 ? sum + bytes : sum;
  }, 0);
  const bytes = Buffer.alloc(tableBytes + outOfLine);
  bytes.writeBigUInt64LE(BigInt(sorted.length), 0);
  let extra = tableBytes;
  sorted.forEach((entry, index) => {
    const at = 8 + index * ENTRY_BYTES;
    bytes.writeUInt16LE(entry.tag, at);
    bytes.writeUInt16LE(entry.type, at + 2);
    bytes.writeBigUInt64LE(BigInt(entry.values.length), at + 4);
    const size = TYPE_BYTES[entry.type];
    let target = at + 12;
    if (entry.values.length * size > 8) {
      bytes.writeBigUInt64LE(BigInt(offset + extra), at + 12);
      target = extra;
      extra += entry.values.length * size;
    }
    entry.values.forEach((value, i) => writeValue(bytes, entry.type, value, target + i * size));
  });
  return { bytes, nextPointer: tableBytes - 8 };
}

/**
 * Writes a tiled BigTIFF pyramid whose tiles are complete JPEG streams, stored as they are (no
 * shared JPEGTables), so a tile server can send one without touching it. Colour tiles are declared
 * YCbCr without subsampling, as libjpeg wrote them, unless a level says otherwise; readers convert to RGB
 * while decoding.
 */
export async function writeJpegTiledTiff(target: string, tileSize: number, levels: JpegTiledLevel[]): Promise<void> {
  const file = await fs.open(target, 'w');
  try {
    let position = HEADER_BYTES;
    let components: number | null = null;
    // Tiles go out in writes of a few MB: one write per ~100 KB tile costs a system call each.
    let batch: Buffer[] = [];
    let batchBytes = 0;
    const flush = async () => {
      if (batchBytes === 0) return;
      // The batch ends where the next tile would go.
      await file.writev(batch, position - batchBytes);
      batch = [];
      batchBytes = 0;
    };
    const placed: { level: JpegTiledLevel; offsets: number[]; counts: number[] }[] = [];
    for (const level of levels) {
      const expected = Math.ceil(level.width / tileSize) * Math.ceil(level.height / tileSize);
      const offsets: number[] = [];
      const counts: number[] = [];
      for await (const tile of level.tiles) {
        components ??= jpegComponents(tile);
        batch.push(tile);
        batchBytes += tile.length;
        offsets.push(position);
        counts.push(tile.length);
        position += tile.length;
        if (batchBytes >= BATCH_BYTES) await flush();
      }
      await flush();
      if (offsets.length !== expected) {
        throw new Error(`level ${level.width}×${level.height} has ${offsets.length} tiles, expected ${expected}`);
      }
      placed.push({ level, offsets, counts });
    }
    if (components !== 1 && components !== 3) throw new Error(`JPEG tiles with ${components} components`);

    // BigTIFF wants IFDs on a word boundary.
    position += position % 2;
    const header = Buffer.alloc(HEADER_BYTES);
    header.write('II', 0, 'latin1');
    header.writeUInt16LE(43, 2);
    header.writeUInt16LE(8, 4);
    header.writeBigUInt64LE(BigInt(position), 8);
    await file.write(header, 0, HEADER_BYTES, 0);

    for (const [index, { level, offsets, counts }] of placed.entries()) {
      const colour = components === 3;
      const { colour: coded, subsampling } = level.colours ?? { colour: 'ycbcr', subsampling: [1, 1] };
      let photometric = PHOTOMETRIC_MINISBLACK;
      if (colour) photometric = coded === 'rgb' ? PHOTOMETRIC_RGB : PHOTOMETRIC_YCBCR;
      const entries: Entry[] = [
        { tag: TIFF_TAG.NewSubfileType, type: LONG, values: [index === 0 ? 0 : 1] },
        { tag: TIFF_TAG.ImageWidth, type: LONG, values: [level.width] },
        { tag: TIFF_TAG.ImageLength, type: LONG, values: [level.height] },
        { tag: TIFF_TAG.BitsPerSample, type: SHORT, values: Array<number>(components).fill(8) },
        { tag: TIFF_TAG.Compression, type: SHORT, values: [JPEG_COMPRESSION] },
        { tag: TIFF_TAG.Photometric, type: SHORT, values: [photometric] },
        { tag: TIFF_TAG.SamplesPerPixel, type: SHORT, values: [components] },
        { tag: TIFF_TAG.PlanarConfiguration, type: SHORT, values: [1] },
        { tag: TIFF_TAG.TileWidth, type: LONG, values: [tileSize] },
        { tag: TIFF_TAG.TileLength, type: LONG, values: [tileSize] },
        { tag: TIFF_TAG.TileOffsets, type: LONG8, values: offsets },
        { tag: TIFF_TAG.TileByteCounts, type: LONG8, values: counts },
      ];
      if (photometric === PHOTOMETRIC_YCBCR) {
        entries.push({ tag: TIFF_TAG.YCbCrSubSampling, type: SHORT, values: subsampling });
      }
      const { bytes, nextPointer } = directory(entries, position);
      const next = position + bytes.length + (bytes.length % 2);
      if (index < placed.length - 1) bytes.writeBigUInt64LE(BigInt(next), nextPointer);
      await file.write(bytes, 0, bytes.length, position);
      position = next;
    }
  } finally {
    await file.close();
  }
}
