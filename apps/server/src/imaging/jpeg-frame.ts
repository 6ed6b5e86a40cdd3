/**
 * Position of the frame header (SOF0–SOF2: baseline, extended, progressive) of a JPEG, found by
 * walking its marker segments from the start; null when there is none before the data.
 */
export function jpegFrameHeader(jpeg: Buffer): number | null {
  let position = 2;
  while (position + 9 < jpeg.length && jpeg[position] === 0xff) {
    const marker = jpeg[position + 1]!;
    if (marker >= 0xc0 && marker <= 0xc2) return position;
    position += 2 + jpeg.readUInt16BE(position + 2);
  }
  return null;
}

/** Colour components of a JPEG, from its frame header. */
export function jpegComponents(jpeg: Buffer): number {
  const frame = jpegFrameHeader(jpeg);
  if (frame == null) throw new Error('tile is not a JPEG with a frame header');
  return jpeg[frame + 9]!;
}
