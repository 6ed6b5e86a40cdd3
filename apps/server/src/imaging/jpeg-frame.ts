const SOS = 0xda;

export interface JpegSegment {
  marker: number;
  /** Offset of the segment's 0xFF marker byte. */
  position: number;
  /** The segment's length field: its bytes after the marker, this field included. */
  length: number;
}

/**
 * The marker segments of a JPEG after its SOI, in order, up to and including the scan header (SOS);
 * stops early where the bytes no longer read as a segment.
 */
export function* jpegSegments(jpeg: Buffer): Generator<JpegSegment> {
  let position = 2;
  while (position + 4 <= jpeg.length && jpeg[position] === 0xff) {
    const marker = jpeg[position + 1]!;
    const length = jpeg.readUInt16BE(position + 2);
    yield { marker, position, length };
    if (marker === SOS) return;
    position += 2 + length;
  }
}

/**
 * Position of the frame header (SOF0–SOF2: baseline, extended, progressive) of a JPEG, found by
 * walking its marker segments from the start; null when there is none before the data.
 */
export function jpegFrameHeader(jpeg: Buffer): number | null {
  for (const { marker, position } of jpegSegments(jpeg)) {
    if (position + 9 >= jpeg.length) return null;
    if (marker >= 0xc0 && marker <= 0xc2) return position;
  }
  return null;
}

/** Colour components of a JPEG, from its frame header. */
export function jpegComponents(jpeg: Buffer): number {
  const frame = jpegFrameHeader(jpeg);
  if (frame == null) throw new Error('tile is not a JPEG with a frame header');
  return jpeg[frame + 9]!;
}
