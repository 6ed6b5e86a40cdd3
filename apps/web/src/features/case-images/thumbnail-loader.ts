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

/** GET images/{id}/data?type=SMALL (JPEG) with the bearer token. */
export function loadThumbnail(imageId: string): Promise<string> {
  return thumbnailCache.load(imageId, () =>
    fetchBinary(`images/${encodeURIComponent(imageId)}/data`, { query: { type: 'SMALL' } }),
  );
}
