import { fetchBinary } from './fetch-binary.ts';
import { ThumbnailCache } from './thumbnail-cache.ts';

/** Spec part 2 §9: a thumbnail loads once 1 % of it is within 50 px of the viewport for 100 ms. */
export const THUMBNAIL_OBSERVER_OPTIONS: IntersectionObserverInit = { threshold: 0.01, rootMargin: '50px' };
export const THUMBNAIL_DEBOUNCE_MS = 100;
/** Object URLs kept in memory; a case holds up to a few hundred images. */
export const THUMBNAIL_CACHE_CAPACITY = 300;

/** The page's thumbnails, shared by the case list and the images tab. */
export const thumbnailCache = new ThumbnailCache({
  capacity: THUMBNAIL_CACHE_CAPACITY,
  createUrl: (blob) => URL.createObjectURL(blob),
  revokeUrl: (url) => URL.revokeObjectURL(url),
});

/** The pictures GET images/{id}/data gives that the app shows: the thumbnail and the scanner's macro of the glass. */
export type PictureType = 'SMALL' | 'MACRO';

/** The cache holds the macro beside the thumbnail under a key of its own. */
function cacheKey(imageId: string, type: PictureType): string {
  return type === 'SMALL' ? imageId : `${imageId}:${type}`;
}

/** The object URL already loaded for an image's picture, if any. */
export function peekPicture(imageId: string, type: PictureType): string | undefined {
  return thumbnailCache.peek(cacheKey(imageId, type));
}

/** GET images/{id}/data?type=… (JPEG) with the bearer token, once per picture while it is cached. */
export function loadThumbnail(imageId: string, type: PictureType = 'SMALL'): Promise<string> {
  return thumbnailCache.load(cacheKey(imageId, type), () =>
    fetchBinary(`images/${encodeURIComponent(imageId)}/data`, { query: { type } }),
  );
}

/** A picture on screen shows it: its URL stays until {@link releasePicture}. */
export function retainPicture(imageId: string, type: PictureType): void {
  thumbnailCache.retain(cacheKey(imageId, type));
}

export function releasePicture(imageId: string, type: PictureType): void {
  thumbnailCache.release(cacheKey(imageId, type));
}

/** Forgets an image's pictures (deleted, reprocessed): the next showing loads them again. */
export function forgetPictures(imageId: string): void {
  for (const type of ['SMALL', 'MACRO'] as const) thumbnailCache.invalidate(cacheKey(imageId, type));
}
