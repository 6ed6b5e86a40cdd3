import { open } from 'node:fs/promises';
import { baselineJpegCoding, jpegSegments } from './jpeg-frame.ts';
import type { FileRange } from './run-tool.ts';
import { JPEG_COMPRESSION, TIFF_TAG, type TiffPage, type TiffStructure } from './tiff-structure.ts';

/** libjpeg decodes no wider or higher: NDPI's largest levels say width 0 in their JPEG frame past it. */
const JPEG_DECODABLE = 65_500;

/** The pyramid levels of an NDPI's focal plane 0, the plane OpenSlide (and so our conversion) reads; largest first. */
export function ndpiPlaneLevels(pages: readonly TiffPage[]): TiffPage[] {
  return pages.filter((page) => {
    const lens = page.tags.get(TIFF_TAG.NdpiSourceLens)?.value;
    const z = page.tags.get(TIFF_TAG.NdpiZOffset)?.value;
    return Array.isArray(lens) && lens[0]! > 0 && (!Array.isArray(z) || z[0] === 0);
  });
}

export interface ThumbnailLevel {
  page: TiffPage;
  /** The thumbnail's size, from level 0's proportions (a level's own are rounded). */
  width: number;
  height: number;
}

/**
 * The smallest level, in one JPEG strip, that still covers a `size`-px thumbnail of the whole slide: decoded on its
 * own while the pyramid is written, so the thumbnail no longer waits for the pyramid.
 */
export function ndpiThumbnailLevel(structure: TiffStructure, size: number): ThumbnailLevel | null {
  const levels = ndpiPlaneLevels(structure.pages);
  const base = levels[0];
  if (!base) return null;
  const scale = Math.min(1, size / base.width, size / base.height);
  const width = Math.max(1, Math.round(base.width * scale));
  const height = Math.max(1, Math.round(base.height * scale));
  const page = levels
    .filter(
      (level) =>
        level.width >= width &&
        level.height >= height &&
        level.width <= JPEG_DECODABLE &&
        level.height <= JPEG_DECODABLE &&
        level.stripOffsets.length === 1,
    )
    .at(-1);
  return page ? { page, width, height } : null;
}

/** Far more than an NDPI level's JPEG header (tables, frame, restart interval, scan header) takes. */
export const NDPI_HEADER_BYTES = 64 * 1024;
const SOF0 = 0xc0;
const SOF1 = 0xc1;
const DRI = 0xdd;
const SOS = 0xda;

/** An NDPI level's restart segments, each one segment wide and one row of MCUs high, from its JPEG header. */
export interface NdpiSegments {
  /** Where the frame header (SOF0 or SOF1) lies in the level's head. */
  frame: number;
  /** Where the coded data starts in the strip, after the scan header: McuStarts' first offset. */
  data: number;
  width: number;
  height: number;
  /** Each segment's offset in the strip (McuStarts). */
  starts: number[];
}

/**
 * The restart segments of an NDPI level, from the first bytes of its strip (`head`, NDPI_HEADER_BYTES at most) and
 * its McuStarts; null where the header and McuStarts do not describe one segment per cell of a grid over the level.
 */
export function ndpiSegments(page: TiffPage, head: Buffer): NdpiSegments | null {
  const starts = page.tags.get(TIFF_TAG.NdpiMcuStarts)?.value;
  if (!Array.isArray(starts) || starts.length === 0) return null;
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
  const width = interval * 8 * across;
  const height = 8 * down;
  if (Math.ceil(page.width / width) * Math.ceil(page.height / height) !== starts.length) return null;
  return { frame, data, width, height, starts };
}

/**
 * Level 0 of an NDPI as the one baseline JPEG it is, for libjpeg to decode from start to end in one pass, far
 * cheaper than OpenSlide's reading of it restart segment by restart segment through its tile cache. Only where both
 * read the same pixels, from the first directory: a whole JPEG (SOI … EOI) whose frame gives the level's own size (an NDPI level past 65,535 px
 * says 0 there) in three components, chroma sampled as OpenSlide reads it at full scale (4:4:4 or 4:2:2: OpenSlide
 * 3.4.1 fails on 4:2:0 levels, and such a file must fail here as it does there), and McuStarts placing one restart
 * segment per tile of a grid that fills the level (OpenSlide shears a level whose width is not whole segments).
 * Null otherwise: OpenSlide reads it.
 */
export async function ndpiBaseJpeg(sourcePath: string, structure: TiffStructure): Promise<FileRange | null> {
  if (!structure.ndpi) return null;
  const base = ndpiPlaneLevels(structure.pages).reduce<TiffPage | null>(
    (widest, page) => (widest == null || page.width > widest.width ? page : widest),
    null,
  );
  // OpenSlide reports the first directory's tags (resolution, source lens, scanner): level 0 must be that one.
  if (base == null || base !== structure.pages[0]) return null;
  const start = base.stripOffsets[0];
  const length = base.stripByteCounts[0];
  if (base.compression !== JPEG_COMPRESSION || base.stripOffsets.length !== 1 || !start || !length || length < 4) {
    return null;
  }
  const handle = await open(sourcePath, 'r');
  try {
    const head = Buffer.alloc(Math.min(length, NDPI_HEADER_BYTES));
    const end = Buffer.alloc(2);
    await handle.read(head, 0, head.length, start);
    await handle.read(end, 0, 2, start + length - 2);
    const whole = end[0] === 0xff && end[1] === 0xd9;
    return whole && segmentsFillLevel(base, head) ? { path: sourcePath, start, length } : null;
  } finally {
    await handle.close();
  }
}

/** Whether the level's JPEG header and McuStarts describe restart segments tiling the level exactly. */
function segmentsFillLevel(level: TiffPage, head: Buffer): boolean {
  const coding = baselineJpegCoding(head);
  const [across, down] = coding?.subsampling ?? [0, 0];
  if (coding?.width !== level.width || coding.height !== level.height || coding.components !== 3) return false;
  if (down !== 1 || (across !== 1 && across !== 2)) return false;
  const segments = ndpiSegments(level, head);
  return segments != null && level.width % segments.width === 0 && level.height % segments.height === 0;
}
