import { useEffect, useState } from 'react';
import { loadThumbnail, thumbnailCache } from './thumbnail-loader.ts';
import { useInView } from './useInView.ts';

export type ThumbnailState =
  { kind: 'waiting' } | { kind: 'loading' } | { kind: 'loaded'; url: string } | { kind: 'failed'; error: unknown };

/**
 * The thumbnail of an available image, fetched with the bearer token once its element comes into view. `ref` goes on
 * the element that marks the thumbnail's place. Images that are not available have no thumbnail: pass enabled false.
 */
export function useThumbnail<T extends Element>(
  imageId: string,
  enabled: boolean,
): { ref: (element: T | null) => void; state: ThumbnailState } {
  const [ref, inView] = useInView<T>();
  const [state, setState] = useState<ThumbnailState>(() => {
    const url = enabled ? thumbnailCache.peek(imageId) : undefined;
    return url ? { kind: 'loaded', url } : { kind: 'waiting' };
  });

  useEffect(() => {
    if (!enabled || !inView) {
      setState({ kind: 'waiting' });
      return;
    }
    let current = true;
    thumbnailCache.retain(imageId);
    const cached = thumbnailCache.peek(imageId);
    setState(cached ? { kind: 'loaded', url: cached } : { kind: 'loading' });
    if (!cached) {
      loadThumbnail(imageId).then(
        (url) => current && setState({ kind: 'loaded', url }),
        (error: unknown) => current && setState({ kind: 'failed', error }),
      );
    }
    return () => {
      current = false;
      thumbnailCache.release(imageId);
    };
  }, [imageId, enabled, inView]);

  return { ref, state };
}
