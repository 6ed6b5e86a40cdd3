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

const SOF0 = 0xc0;
const APP0 = 0xe0;
const APP14 = 0xee;
/** Component ids 'R', 'G', 'B': what libjpeg takes for RGB in a JPEG that says nothing else about its colours. */
const RGB_IDS = [0x52, 0x47, 0x42];

/** How a baseline JPEG is coded, as libjpeg reads it from the JPEG's own markers. */
export interface JpegCoding {
  width: number;
  height: number;
  components: number;
  /**
   * The colours libjpeg decodes the samples as (libjpeg-turbo in sharp, libvips, Chromium and Firefox):
   * a JFIF marker means YCbCr, else an Adobe marker's transform (0 RGB, 1 YCbCr), else the component ids.
   */
  colour: 'grey' | 'ycbcr' | 'rgb';
  /** Whether a JFIF or Adobe marker states the colours, rather than leaving libjpeg to guess from the ids. */
  stated: boolean;
  /** The first component's sampling factors [h, v] when every other one is sampled once per MCU; else null. */
  subsampling: [number, number] | null;
}

/** The coding of an 8-bit baseline (SOF0) JPEG; null for any other JPEG, or bytes that do not read as one. */
export function baselineJpegCoding(jpeg: Buffer): JpegCoding | null {
  if (jpeg.length < 4 || jpeg[0] !== 0xff || jpeg[1] !== 0xd8) return null;
  let jfif = false;
  let adobeTransform: number | null = null;
  for (const { marker, position, length } of jpegSegments(jpeg)) {
    const body = position + 4;
    if (body + length - 2 > jpeg.length) return null;
    if (marker === APP0 && jpeg.toString('latin1', body, body + 5) === 'JFIF\0') jfif = true;
    if (marker === APP14 && length >= 14 && jpeg.toString('latin1', body, body + 5) === 'Adobe') {
      adobeTransform = jpeg[body + 11]!;
    }
    if (marker >= 0xc1 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) return null;
    if (marker !== SOF0) continue;
    const components = jpeg[body + 5]!;
    if (jpeg[body] !== 8 || length !== 8 + components * 3 || (components !== 1 && components !== 3)) return null;
    const ids = Array.from({ length: components }, (_, index) => jpeg[body + 6 + index * 3]!);
    const factors = Array.from({ length: components }, (_, index) => jpeg[body + 7 + index * 3]!);
    const chromaOnce = factors.slice(1).every((factor) => factor === 0x11);
    let colour: JpegCoding['colour'] = 'grey';
    if (components === 3) {
      if (jfif) colour = 'ycbcr';
      else if (adobeTransform != null) colour = adobeTransform === 0 ? 'rgb' : 'ycbcr';
      else colour = ids.every((id, index) => id === RGB_IDS[index]) ? 'rgb' : 'ycbcr';
    }
    return {
      height: jpeg.readUInt16BE(body + 1),
      width: jpeg.readUInt16BE(body + 3),
      components,
      colour,
      stated: jfif || adobeTransform != null,
      subsampling: chromaOnce ? [factors[0]! >> 4, factors[0]! & 0x0f] : null,
    };
  }
  return null;
}
