/**
 * Cutting a rectangle out of JPEG tiles without decoding them, by their restart markers. A restart
 * marker resets the decoder's state, so when the restart interval lays whole segments along the
 * rows of blocks, any run of segments is itself valid coded data: copied in order under a frame
 * header with the new size, segments of one tile, or of neighbouring tiles coded with the same
 * tables, make one JPEG whose pixels are exactly those of that part of the tiles. A region across
 * four tiles then costs about one tile's decoding instead of four.
 */

import { jpegSegments } from './jpeg-frame.ts';

const SOF0 = 0xc0;
const SOF1 = 0xc1;
const DRI = 0xdd;
const SOS = 0xda;
const EOI = 0xd9;
const RST0 = 0xd0;

export interface RestartLayout {
  /** Offset of the frame header (SOF0/SOF1). */
  frame: number;
  /** Offset of the first byte of coded data, after the scan header. */
  data: number;
  width: number;
  height: number;
  /** Pixels across one restart segment, and down one row of blocks. */
  segmentWidth: number;
  blockHeight: number;
  segmentsAcross: number;
  /** Byte range of each segment's coded data, row by row, without its restart marker. */
  starts: number[];
  ends: number[];
}

export interface BlockCrop {
  jpeg: Buffer;
  /** Where the asked rectangle begins inside the cropped JPEG. */
  left: number;
  top: number;
}

interface Frame {
  width: number;
  height: number;
  blockWidth: number;
  blockHeight: number;
}

/**
 * The block size of a baseline frame, or null when its components are sampled differently: chroma
 * upsampling reads across block edges, so a cut of a subsampled image would differ at its borders.
 */
function readFrame(jpeg: Buffer, at: number): Frame | null {
  const height = jpeg.readUInt16BE(at + 5);
  const width = jpeg.readUInt16BE(at + 7);
  const components = jpeg[at + 9]!;
  if (components === 0 || at + 10 + components * 3 > jpeg.length) return null;
  const sampling = jpeg[at + 11]!;
  for (let index = 1; index < components; index++) if (jpeg[at + 11 + index * 3] !== sampling) return null;
  // One component is coded block by block whatever its sampling factors say.
  const [across, down] = components === 1 ? [1, 1] : [sampling >> 4, sampling & 0x0f];
  return { width, height, blockWidth: 8 * across, blockHeight: 8 * down };
}

/** Byte ranges of the restart segments of the coded data from `start`, up to its EOI. */
function segmentRanges(jpeg: Buffer, start: number): { starts: number[]; ends: number[] } | null {
  const starts = [start];
  const ends: number[] = [];
  let position = start;
  for (;;) {
    position = jpeg.indexOf(0xff, position);
    if (position < 0 || position + 1 >= jpeg.length) return null;
    let marker = jpeg[position + 1]!;
    let end = position + 2;
    // Fill bytes: any number of 0xFF may stand before a marker.
    while (marker === 0xff && end < jpeg.length) marker = jpeg[end++]!;
    if (marker === 0x00) {
      position = end;
    } else if (marker >= RST0 && marker <= RST0 + 7) {
      ends.push(position);
      starts.push(end);
      position = end;
    } else if (marker === EOI) {
      ends.push(position);
      return { starts, ends };
    } else {
      return null;
    }
  }
}

/**
 * The restart layout of a baseline JPEG with one interleaved scan whose restart segments tile its
 * rows of blocks, or null for any other JPEG (progressive, without restart markers, segments
 * straddling rows, subsampled chroma).
 */
export function restartLayout(jpeg: Buffer): RestartLayout | null {
  if (jpeg.length < 4 || jpeg[0] !== 0xff || jpeg[1] !== 0xd8) return null;
  let frame: number | null = null;
  let interval = 0;
  for (const { marker, position, length } of jpegSegments(jpeg)) {
    if (marker >= 0xc2 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return null;
    if (marker === SOF0 || marker === SOF1) frame = position;
    if (marker === DRI) interval = jpeg.readUInt16BE(position + 4);
    if (marker === SOS) {
      if (frame == null || interval === 0 || jpeg[position + 4] !== jpeg[frame + 9]) return null;
      return layoutFrom(jpeg, frame, position + 2 + length, interval);
    }
  }
  return null;
}

function layoutFrom(jpeg: Buffer, frame: number, data: number, interval: number): RestartLayout | null {
  const size = readFrame(jpeg, frame);
  if (size == null) return null;
  const blocksAcross = Math.ceil(size.width / size.blockWidth);
  const blocksDown = Math.ceil(size.height / size.blockHeight);
  if (blocksAcross % interval !== 0) return null;
  const ranges = segmentRanges(jpeg, data);
  const segmentsAcross = blocksAcross / interval;
  if (ranges == null || ranges.starts.length !== segmentsAcross * blocksDown) return null;
  return {
    frame,
    data,
    width: size.width,
    height: size.height,
    segmentWidth: interval * size.blockWidth,
    blockHeight: size.blockHeight,
    segmentsAcross,
    ...ranges,
  };
}

export interface RestartTile {
  jpeg: Buffer;
  layout: RestartLayout;
}

/**
 * True when the tiles can be joined segment by segment: one size and block geometry, and the same
 * bytes before the coded data (so the same tables and restart interval). Across a tile boundary a
 * segment must end at the tile's edge, so several tiles across (or down) need a width (height) of
 * whole segments (block rows).
 */
function stitchable(grid: readonly (readonly RestartTile[])[]): boolean {
  const first = grid[0]?.[0];
  if (first == null) return false;
  const { layout, jpeg } = first;
  if (grid.some((row) => row.length !== grid[0]!.length)) return false;
  if (grid[0]!.length > 1 && layout.width % layout.segmentWidth !== 0) return false;
  if (grid.length > 1 && layout.height % layout.blockHeight !== 0) return false;
  const header = jpeg.subarray(0, layout.data);
  return grid.every((row) =>
    row.every(
      (tile) =>
        tile.layout.data === layout.data &&
        tile.layout.segmentWidth === layout.segmentWidth &&
        tile.layout.blockHeight === layout.blockHeight &&
        tile.jpeg.subarray(0, layout.data).equals(header),
    ),
  );
}

/**
 * The smallest run of whole segments covering `rect` of a grid of tiles (rows of tiles, each row
 * left to right, `rect` measured from the first tile's corner), as one JPEG. Its restart interval
 * stays the same, so the copied segments keep lining up with its rows. Null when the tiles cannot
 * be joined (see stitchable).
 */
export function stitchJpegBlocks(
  grid: readonly (readonly RestartTile[])[],
  rect: { left: number; top: number; width: number; height: number },
): BlockCrop | null {
  if (!stitchable(grid)) return null;
  const { layout: first, jpeg: firstJpeg } = grid[0]![0]!;
  const { segmentWidth, blockHeight, segmentsAcross } = first;
  const rowsPerTile = Math.ceil(first.height / blockHeight);
  const firstColumn = Math.floor(rect.left / segmentWidth);
  const endColumn = Math.ceil((rect.left + rect.width) / segmentWidth);
  const firstRow = Math.floor(rect.top / blockHeight);
  const endRow = Math.ceil((rect.top + rect.height) / blockHeight);
  const width = Math.min(endColumn * segmentWidth, grid[0]!.length * first.width) - firstColumn * segmentWidth;
  const height = Math.min(endRow * blockHeight, grid.length * first.height) - firstRow * blockHeight;

  const segments: { jpeg: Buffer; start: number; end: number }[] = [];
  let length = first.data + 2;
  for (let row = firstRow; row < endRow; row++) {
    const tileRow = grid[Math.floor(row / rowsPerTile)]!;
    for (let column = firstColumn; column < endColumn; column++) {
      const { jpeg, layout } = tileRow[Math.floor(column / segmentsAcross)]!;
      const segment = (row % rowsPerTile) * segmentsAcross + (column % segmentsAcross);
      const [start, end] = [layout.starts[segment]!, layout.ends[segment]!];
      segments.push({ jpeg, start, end });
      length += end - start + 2;
    }
  }
  const out = Buffer.allocUnsafe(length - 2);
  firstJpeg.copy(out, 0, 0, first.data);
  out.writeUInt16BE(height, first.frame + 5);
  out.writeUInt16BE(width, first.frame + 7);
  let position = first.data;
  segments.forEach(({ jpeg, start, end }, index) => {
    if (index > 0) {
      out[position++] = 0xff;
      out[position++] = RST0 + ((index - 1) % 8);
    }
    position += jpeg.copy(out, position, start, end);
  });
  out[position++] = 0xff;
  out[position++] = EOI;
  return { jpeg: out, left: rect.left - firstColumn * segmentWidth, top: rect.top - firstRow * blockHeight };
}
