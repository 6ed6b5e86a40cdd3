import { HttpError } from '../../http/http-error.ts';
import { IIIF_PROFILE } from './info-json.ts';
import { IiifRequestError, parseImageRequest } from './iiif-params.ts';
import type { LayerTarget } from './layer-access.ts';
import type { OriginalSource } from './original-source.ts';
import type { PyramidCache } from './pyramid-cache.ts';
import type { TileCache } from './tile-cache.ts';
import { cachedStoredTile, renderImage, type RenderedImage } from './tile-render.ts';

/** The image request's route; the lean path (tile-lane.ts) reports its answers under it too. */
export const TILE_ROUTE = '/iiif/2/:id/:region/:size/:rotation/:qualityFormat';

/** The path parameters of an image request after the layer id. */
export interface TileParts {
  region: string;
  size: string;
  rotation: string;
  qualityFormat: string;
}

export interface TileSources {
  pyramids: PyramidCache;
  originals: OriginalSource;
  tiles: TileCache;
}

// A layer's pyramid never changes (a reprocess makes new layers), so its answers can be kept for a year.
const IMMUTABLE = 'private, max-age=31536000, immutable';
/**
 * What is cut from an original is replaced by the pyramid's tiles within seconds to minutes: kept briefly, so
 * no cache holds it past the hand-over (its ETag differs from the pyramid tile's, so revalidation fetches that).
 */
const BRIEF = 'private, max-age=30';

/** Headers of every IIIF answer, errors included. */
export const IIIF_HEADERS = { 'Access-Control-Allow-Origin': '*', Link: `<${IIIF_PROFILE}>;rel="profile"` } as const;

export function cacheControl(target: LayerTarget): string {
  return target.fromOriginal ? BRIEF : IMMUTABLE;
}

/** The layer and the parameters name the answer for good; no hash needed (quotes cannot occur in them). */
export function tileEtag(target: LayerTarget, parts: TileParts): string {
  const source = target.fromOriginal ? 'original:' : '';
  const path = `${parts.region}/${parts.size}/${parts.rotation}/${parts.qualityFormat}`;
  return `"${source}${target.layerId}/${path.replace(/"/g, '')}"`;
}

/** The picture an image request asks for, from a layer's pyramid. */
export async function renderPyramidTile(
  pyramidKey: string,
  parts: TileParts,
  sources: Pick<TileSources, 'pyramids' | 'tiles'>,
): Promise<RenderedImage> {
  const pyramid = await sources.pyramids.get(pyramidKey);
  const full = pyramid.levels[0];
  if (full == null) throw HttpError.notFound();
  return renderImage(pyramid, parseImageRequest(parts, full), sources.tiles);
}

/**
 * The picture when the pyramid is open and the request is a stored tile already cached, or null (also for a
 * request that is not valid: `renderPyramidTile` gives its error).
 */
export function cachedPyramidTile(
  pyramidKey: string,
  parts: TileParts,
  sources: Pick<TileSources, 'pyramids' | 'tiles'>,
): RenderedImage | null {
  const pyramid = sources.pyramids.peek(pyramidKey);
  const full = pyramid?.levels[0];
  if (pyramid == null || full == null) return null;
  try {
    return cachedStoredTile(pyramid, parseImageRequest(parts, full), sources.tiles);
  } catch {
    return null;
  }
}

/** The picture an image request asks for, from the layer's pyramid or, while it builds, from its original. */
export async function renderTile(target: LayerTarget, parts: TileParts, sources: TileSources): Promise<RenderedImage> {
  try {
    if (!target.fromOriginal) return await renderPyramidTile(target.pyramidKey, parts, sources);
    const served = await sources.originals.served(target.pyramidKey);
    const full = served?.levels[0];
    if (served == null || full == null) throw HttpError.notFound();
    return await served.render(parseImageRequest(parts, full), sources.tiles);
  } catch (error) {
    if (error instanceof IiifRequestError) throw new HttpError(error.statusCode, error.message);
    throw error;
  }
}
