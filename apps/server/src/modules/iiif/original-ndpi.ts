import { TIFF_TAG, type ByteReader, type TiffPage } from '../../imaging/index.ts';
import { jpegSegments } from '../../imaging/jpeg-frame.ts';
import { ndpiPlaneLevels } from '../../imaging/ndpi-levels.ts';

/** Far more than any JPEG header (tables, frame, restart interval, scan header) NDPI levels carry. */
const HEADER_BYTES = 64 * 1024;
const SOF0 = 0xc0;
const SOF1 = 0xc1;
const DRI = 0xdd;
const SOS = 0xda;

/**
 * An NDPI level as a tiled page, so it is served like any tiled original: each restart segment (whose
 * offset McuStarts gives) is a tile one segment wide and one row of MCUs high. A tile is read with the
 * two bytes before its coded data (spliced away like a tile's SOI) and the marker after it (made EOI,
 * see originalJpegTile), under the level's own JPEG header with its frame sized to one segment. Null
 * for a level whose header or McuStarts do not describe its segments.
 */
export async function ndpiLevelAsTiles(reader: ByteReader, page: TiffPage): Promise<TiffPage | null> {
  const strip = page.stripOffsets[0];
  const stripLength = page.stripByteCounts[0];
  const starts = page.tags.get(TIFF_TAG.NdpiMcuStarts)?.value;
  if (strip == null || stripLength == null || !Array.isArray(starts) || starts.length === 0) return null;
  const head = await reader.read(strip, Math.min(stripLength, HEADER_BYTES));
  let frame: number | null = null;
  let interval = 0;
  let data: number | null = null;
  for (const { marker, position, length } of jpegSegments(head)) {
    if (marker === SOF0 || marker === SOF1) frame = position;
    if (marker === DRI) interval = head.readUInt16BE(position + 4);
    if (marker === SOS) data = position + 2 + length;
  }
  if (frame == null || data == null || interval === 0 || starts[0] !== data) return null;
  const components = head[frame + 9]!;
  let across = 1;
  let down = 1;
  for (let index = 0; index < components; index++) {
    const sampling = head[frame + 11 + index * 3]!;
    across = Math.max(across, sampling >> 4);
    down = Math.max(down, sampling & 0x0f);
  }
  const tileWidth = interval * 8 * across;
  const tileHeight = 8 * down;
  if (Math.ceil(page.width / tileWidth) * Math.ceil(page.height / tileHeight) !== starts.length) return null;
  const header = Buffer.from(head.subarray(0, data));
  header.writeUInt16BE(tileHeight, frame + 5);
  header.writeUInt16BE(tileWidth, frame + 7);
  const ends = [...starts.slice(1), stripLength];
  return {
    ...page,
    tileWidth,
    tileHeight,
    tileOffsets: starts.map((start) => strip + start - 2),
    tileByteCounts: starts.map((start, index) => ends[index]! - start + 2),
    jpegTables: Buffer.concat([header, Buffer.from([0xff, 0xd9])]),
    // Now a tiled page like any other: original-plan.ts refuses NDPI pages as stored (one strip each).
    ndpiMarker: null,
    stripOffsets: [],
    stripByteCounts: [],
  };
}

/** The levels of an NDPI original's focal plane 0 (the plane OpenSlide and so its conversion read), as tiled pages. */
export async function ndpiServedPages(pages: readonly TiffPage[], reader: ByteReader): Promise<TiffPage[] | null> {
  const tiled = await Promise.all(ndpiPlaneLevels(pages).map((page) => ndpiLevelAsTiles(reader, page)));
  return tiled.length > 0 && tiled.every((page) => page != null) ? tiled : null;
}
