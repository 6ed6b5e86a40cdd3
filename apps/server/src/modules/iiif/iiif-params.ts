/**
 * The path parameters of a IIIF Image API 2.1 request
 * (`{region}/{size}/{rotation}/{quality}.{format}`), resolved against the image's size.
 * https://iiif.io/api/image/2.1/#image-request-parameters
 */

export const IIIF_QUALITIES = ['default', 'color', 'gray', 'bitonal'] as const;
export type IiifQuality = (typeof IIIF_QUALITIES)[number];
export const IIIF_FORMATS = ['jpg', 'png'] as const;
export type IiifFormat = (typeof IIIF_FORMATS)[number];

/** The largest picture one request may ask for (announced as maxArea in info.json). */
export const MAX_OUTPUT_AREA = 4096 * 4096;

export interface Region {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ImageRequest {
  /** In full-resolution pixels, clipped to the image. */
  region: Region;
  width: number;
  height: number;
  /** Clockwise, one of 0, 90, 180, 270. */
  rotation: 0 | 90 | 180 | 270;
  mirror: boolean;
  quality: IiifQuality;
  format: IiifFormat;
}

/** A malformed or impossible request: 400, or 415 for a format we do not produce. */
export class IiifRequestError extends Error {
  constructor(
    readonly statusCode: 400 | 415,
    message: string,
  ) {
    super(message);
  }
}

const bad = (message: string) => new IiifRequestError(400, message);
const NUMBER = /^\d+(\.\d+)?$/;

function numbers(text: string, count: number, what: string): number[] {
  const parts = text.split(',');
  if (parts.length !== count || parts.some((part) => !NUMBER.test(part))) throw bad(`Invalid ${what}: ${text}`);
  return parts.map(Number);
}

export function parseRegion(text: string, imageWidth: number, imageHeight: number): Region {
  let x: number, y: number, width: number, height: number;
  if (text === 'full') return { x: 0, y: 0, width: imageWidth, height: imageHeight };
  if (text === 'square') {
    const side = Math.min(imageWidth, imageHeight);
    return {
      x: Math.floor((imageWidth - side) / 2),
      y: Math.floor((imageHeight - side) / 2),
      width: side,
      height: side,
    };
  }
  if (text.startsWith('pct:')) {
    const [px, py, pw, ph] = numbers(text.slice(4), 4, 'region');
    [x, y, width, height] = [
      Math.round((px! / 100) * imageWidth),
      Math.round((py! / 100) * imageHeight),
      Math.round((pw! / 100) * imageWidth),
      Math.round((ph! / 100) * imageHeight),
    ];
  } else {
    [x, y, width, height] = numbers(text, 4, 'region').map(Math.floor) as [number, number, number, number];
  }
  if (width <= 0 || height <= 0) throw bad(`Region has no area: ${text}`);
  if (x >= imageWidth || y >= imageHeight) throw bad(`Region lies outside the image: ${text}`);
  return { x, y, width: Math.min(width, imageWidth - x), height: Math.min(height, imageHeight - y) };
}

/** The output size for a region; never larger than the region itself (no upscaling) nor than MAX_OUTPUT_AREA. */
export function parseSize(text: string, region: Region): { width: number; height: number } {
  const ratio = region.width / region.height;
  let width: number;
  let height: number;
  if (text === 'full' || text === 'max') {
    ({ width, height } = region);
    if (text === 'max' && width * height > MAX_OUTPUT_AREA) {
      const shrink = Math.sqrt(MAX_OUTPUT_AREA / (width * height));
      width = Math.floor(width * shrink);
      height = Math.floor(height * shrink);
    }
  } else if (text.startsWith('pct:')) {
    const [percent] = numbers(text.slice(4), 1, 'size');
    width = Math.round((region.width * percent!) / 100);
    height = Math.round((region.height * percent!) / 100);
  } else if (text.startsWith('!')) {
    const [boxWidth, boxHeight] = numbers(text.slice(1), 2, 'size').map(Math.floor) as [number, number];
    const scale = Math.min(boxWidth / region.width, boxHeight / region.height);
    width = Math.round(region.width * scale);
    height = Math.round(region.height * scale);
  } else {
    const match = /^(\d*),(\d*)$/.exec(text);
    if (match == null || (match[1] === '' && match[2] === '')) throw bad(`Invalid size: ${text}`);
    const [, w, h] = match;
    width = w === '' ? Math.round(Number(h) * ratio) : Number(w);
    height = h === '' ? Math.round(Number(w) / ratio) : Number(h);
  }
  if (width < 1 || height < 1) throw bad(`Size is empty: ${text}`);
  // One pixel of slack: clients compute ceil(region / scale) where we may round the other way.
  if (width > region.width + 1 || height > region.height + 1) throw bad(`Size is larger than the region: ${text}`);
  if (width * height > MAX_OUTPUT_AREA) throw bad(`Size exceeds ${MAX_OUTPUT_AREA} pixels: ${text}`);
  return { width, height };
}

export function parseRotation(text: string): { rotation: ImageRequest['rotation']; mirror: boolean } {
  const mirror = text.startsWith('!');
  const value = mirror ? text.slice(1) : text;
  if (!NUMBER.test(value)) throw bad(`Invalid rotation: ${text}`);
  const degrees = Number(value);
  if (degrees !== 0 && degrees !== 90 && degrees !== 180 && degrees !== 270 && degrees !== 360) {
    throw bad(`Rotation must be a multiple of 90: ${text}`);
  }
  return { rotation: (degrees % 360) as ImageRequest['rotation'], mirror };
}

export function parseQualityFormat(text: string): { quality: IiifQuality; format: IiifFormat } {
  const dot = text.lastIndexOf('.');
  if (dot <= 0) throw bad(`Missing format: ${text}`);
  const quality = IIIF_QUALITIES.find((candidate) => candidate === text.slice(0, dot));
  if (quality == null) throw bad(`Invalid quality: ${text.slice(0, dot)}`);
  const extension = text.slice(dot + 1);
  const format = IIIF_FORMATS.find((candidate) => candidate === extension);
  if (format == null) {
    if (/^[a-z0-9]{2,5}$/.test(extension)) throw new IiifRequestError(415, `Unsupported format: ${extension}`);
    throw bad(`Invalid format: ${extension}`);
  }
  return { quality, format };
}

export function parseImageRequest(
  parts: { region: string; size: string; rotation: string; qualityFormat: string },
  image: { width: number; height: number },
): ImageRequest {
  const { quality, format } = parseQualityFormat(parts.qualityFormat);
  const { rotation, mirror } = parseRotation(parts.rotation);
  const region = parseRegion(parts.region, image.width, image.height);
  const size = parseSize(parts.size, region);
  return { region, ...size, rotation, mirror, quality, format };
}
