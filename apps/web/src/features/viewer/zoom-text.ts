import { micronsPerImagePixel, type Image } from '@pathology/contract';
import { scaleBar, type ScaleBar } from './scale-bar.ts';

/** Spec part 2 §9: an image without a magnification that is larger than this on a side is taken as a ×20 scan. */
export const LARGE_IMAGE_SIDE = 5000;
export const DEFAULT_MAGNIFICATION = 20;

/** The objective magnification of the scan: the image's own, else ×20 for a large image, else none. */
export function effectiveMagnification(image: Pick<Image, 'magnification' | 'dimensions'>): number | undefined {
  if (image.magnification != null && image.magnification > 0) return image.magnification;
  const { width = 0, height = 0 } = image.dimensions ?? {};
  return width > LARGE_IMAGE_SIDE || height > LARGE_IMAGE_SIDE ? DEFAULT_MAGNIFICATION : undefined;
}

/**
 * The zoom level of the viewer: log2 of the image zoom, where the image zoom is the number of CSS pixels on screen
 * per pixel of the full-resolution image (OpenSeadragon's `tiledImage.viewportToImageZoom(viewport.getZoom())`).
 * Level 0 shows the slide pixel for pixel; each level up doubles the size, each level down halves it.
 */
export function zoomLevelOf(imageZoom: number): number {
  return Math.log2(imageZoom);
}

/** At most three significant digits, no trailing zeros, never exponent notation: 10, 2.5, 13.5, 0.625, 156. */
function formatValue(value: number): string {
  if (value >= 100) return String(Math.round(value));
  return String(Number(value.toPrecision(3)));
}

/**
 * The zoom indicator (spec part 2 §9): 2^level × magnification with '×' ('×10', '×2.5'), or without a magnification
 * the image zoom as a percentage ('100%' is one screen pixel per image pixel).
 */
export function zoomText(zoomLevel: number, magnification: number | undefined): string {
  const scale = 2 ** zoomLevel;
  if (!Number.isFinite(scale) || scale <= 0) return '';
  return magnification === undefined ? `${formatValue(scale * 100)}%` : `×${formatValue(scale * magnification)}`;
}

/** A zoom within this many levels (about 7 %) below or above a power of two counts as on it. */
const STEP_SLACK = 0.1;

/**
 * The image zoom one zoom-in or zoom-out step goes to: the next power of two of the image zoom in that direction,
 * so the magnification walks the objective steps (×5 → ×10 → ×20 → ×40 on a ×20 scan) from wherever it is. A zoom
 * just short of a step (a fit-to-screen at 199 %) goes on to the following one rather than barely moving.
 */
export function steppedImageZoom(imageZoom: number, direction: 'in' | 'out'): number {
  const level = zoomLevelOf(imageZoom);
  return 2 ** (direction === 'in' ? Math.floor(level + STEP_SLACK) + 1 : Math.ceil(level - STEP_SLACK) - 1);
}

/** What the zoom indicator and a snapshot show at an image zoom: the zoom text and, for a valid resolution, a scale bar. */
export function zoomReadout(
  image: Pick<Image, 'magnification' | 'dimensions' | 'resolution'>,
  imageZoom: number | undefined,
): { text: string; bar: ScaleBar | undefined } {
  if (imageZoom === undefined) return { text: '', bar: undefined };
  const micronsPerPixel = micronsPerImagePixel(image.resolution);
  return {
    text: zoomText(zoomLevelOf(imageZoom), effectiveMagnification(image)),
    bar: micronsPerPixel === undefined ? undefined : scaleBar(micronsPerPixel, imageZoom),
  };
}
