import { JPEG_COMPRESSION, TIFF_TAG, type TiffPage } from '../../imaging/index.ts';
import { TILE_SIZE } from '../../imaging/pyramid.ts';

export interface LevelSize {
  width: number;
  height: number;
}

/** Something of an original's that tiles are cut from, and how many full-resolution pixels one of its pixels spans. */
export interface ScaledSource {
  page: { width: number; height: number };
  scale: number;
}

/** A page of the original that tiles are cut from, and how many full-resolution pixels one of its pixels spans. */
export interface SourcePage {
  page: TiffPage;
  scale: number;
}

/**
 * How an original is served before its pyramid exists: the levels the pyramid will have (so info.json
 * is the same before and after the hand-over) and the original's pages that hold them.
 */
export interface OriginalPlan {
  levels: LevelSize[];
  /** Full resolution first, scale ascending. */
  sources: SourcePage[];
  /**
   * The original's pages as our own pyramid's levels, when it is one already (512-px JPEG tiles, each level
   * exactly half the one before): its tiles then go out as stored.
   */
  pyramidPages: TiffPage[] | null;
}

// Compressions libtiff (in sharp) decodes: none, LZW, JPEG, deflate (both codes). JPEG 2000 (Aperio 33003/33005) is not among them.
const READABLE_COMPRESSIONS = new Set([1, 5, JPEG_COMPRESSION, 8, 32946]);
const PHOTOMETRIC = { minIsBlack: 1, rgb: 2, yCbCr: 6 } as const;
/**
 * The most pixels one 512-px tile may need decoded. Beyond it (a single-level original seen from far away)
 * cutting tiles from the original is slower than waiting for the pyramid, so the slide is converted first.
 */
export const MAX_DECODE_PIXELS = 8 * 1024 * 1024;

/** The levels dzsave writes (google layout, one tile at the top): level k is ceil(size / 2^k) until one tile holds it. */
export function pyramidLevels(width: number, height: number, tileSize = TILE_SIZE): LevelSize[] {
  const levels: LevelSize[] = [];
  for (let k = 0; ; k++) {
    const level = { width: Math.ceil(width / 2 ** k), height: Math.ceil(height / 2 ** k) };
    levels.push(level);
    if (level.width <= tileSize && level.height <= tileSize) return levels;
  }
}

function readable(page: TiffPage): boolean {
  if (page.tileWidth == null || page.tileHeight == null || page.width === 0 || page.height === 0) return false;
  if (!READABLE_COMPRESSIONS.has(page.compression)) return false;
  if (page.bitsPerSample.some((bits) => bits !== 8) || page.sampleFormat.some((format) => format !== 1)) return false;
  if (page.samplesPerPixel !== 1 && page.samplesPerPixel !== 3) return false;
  if (page.samplesPerPixel === 3 && page.planarConfiguration !== 1) return false;
  const photometric = page.photometric ?? PHOTOMETRIC.minIsBlack;
  if (photometric === PHOTOMETRIC.yCbCr) return page.compression === JPEG_COMPRESSION;
  return photometric === (page.samplesPerPixel === 3 ? PHOTOMETRIC.rgb : PHOTOMETRIC.minIsBlack);
}

/** The page as a reduced copy of `full`, with its scale snapped to a power of two when its size is one within a pixel. */
function asSource(full: TiffPage, page: TiffPage): SourcePage | null {
  if (page.width > full.width || (page.subfileType & 4) !== 0) return null;
  const scale = full.width / page.width;
  // Another picture (label, macro, a thumbnail of a different shape) is not a level of the slide.
  if (Math.abs(full.height / scale - page.height) > Math.max(2, page.height * 0.01)) return null;
  const power = 2 ** Math.round(Math.log2(scale));
  const halving = Math.abs(full.width / power - page.width) <= 1 && Math.abs(full.height / power - page.height) <= 1;
  return { page, scale: halving ? power : scale };
}

/**
 * The source a level is cut from: the most reduced page that still has the level's detail and is a whole
 * factor finer (block means then give the pyramid's very pixels), unless that costs more than
 * MAX_DECODE_PIXELS a tile; else the most reduced page with the detail (a page at another ratio is resampled).
 */
export function sourceFor<S extends ScaledSource>(plan: { sources: readonly S[] }, level: number): S {
  const levelScale = 2 ** level;
  const detailed = plan.sources.filter((source) => source.scale <= levelScale * (1 + 1e-9));
  const whole = detailed.filter(
    (source) => Number.isInteger(levelScale / source.scale) && decodeCost(levelScale, source) <= MAX_DECODE_PIXELS,
  );
  return whole.at(-1) ?? detailed.at(-1) ?? plan.sources[0]!;
}

/** Pixels decoded for the costliest tile of a level. */
export function decodeCost(levelScale: number, source: ScaledSource): number {
  const span = (TILE_SIZE * levelScale) / source.scale;
  return Math.min(span, source.page.width) * Math.min(span, source.page.height);
}

/** Whether every level's tiles can be cut from the sources within MAX_DECODE_PIXELS each. */
export function withinDecodeCost(plan: { levels: readonly LevelSize[]; sources: readonly ScaledSource[] }): boolean {
  return plan.levels.every((_, level) => decodeCost(2 ** level, sourceFor(plan, level)) <= MAX_DECODE_PIXELS);
}

function asPyramid(levels: readonly LevelSize[], sources: readonly SourcePage[]): TiffPage[] | null {
  const pages = levels.map((_, level) => sources.find((source) => source.scale === 2 ** level)?.page);
  const fits = (page: TiffPage | undefined): page is TiffPage =>
    page != null &&
    page.compression === JPEG_COMPRESSION &&
    page.photometric !== PHOTOMETRIC.rgb &&
    page.tileWidth === TILE_SIZE &&
    page.tileHeight === TILE_SIZE;
  return pages.every(fits) ? pages : null;
}

/**
 * The plan for a tiled TIFF family original (Aperio SVS, generic tiled or pyramidal TIFF, an OME-TIFF's plane
 * as original-ome.ts picks its pages, an NDPI's levels as original-ndpi.ts tiles them), or null when it must be
 * converted before it can be seen: NDPI pages as stored (one JPEG strip each), other
 * pixel types, orientations, compressions sharp cannot decode, images smaller than their tile, or levels too
 * far apart.
 */
export function planOriginal(pages: readonly TiffPage[]): OriginalPlan | null {
  const full = pages[0];
  if (full == null || !readable(full) || full.ndpiMarker != null) return null;
  if (full.tileWidth! > full.width || full.tileHeight! > full.height) return null;
  const orientation = full.tags.get(TIFF_TAG.Orientation)?.value;
  if (Array.isArray(orientation) && orientation[0] !== 1) return null;
  const sources = pages
    .filter(readable)
    .map((page) => asSource(full, page))
    .filter((source): source is SourcePage => source != null)
    .sort((a, b) => a.scale - b.scale)
    .filter((source, index, all) => index === 0 || source.scale !== all[index - 1]!.scale);
  const levels = pyramidLevels(full.width, full.height);
  const plan = { levels, sources };
  if (!withinDecodeCost(plan)) return null;
  return { ...plan, pyramidPages: asPyramid(levels, sources) };
}
