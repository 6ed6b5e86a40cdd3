import type { ByteReader, TiffPage } from '../../imaging/index.ts';
import { NDPI_HEADER_BYTES, ndpiPlaneLevels, ndpiSegments } from '../../imaging/ndpi-levels.ts';

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
  if (strip == null || stripLength == null) return null;
  const head = await reader.read(strip, Math.min(stripLength, NDPI_HEADER_BYTES));
  const segments = ndpiSegments(page, head);
  if (segments == null) return null;
  const { frame, data, width: tileWidth, height: tileHeight, starts } = segments;
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
