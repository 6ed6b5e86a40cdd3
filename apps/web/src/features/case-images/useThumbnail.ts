import { useEffect, useState } from 'react';
import { loadThumbnail, peekPicture, releasePicture, retainPicture, type PictureType } from './thumbnail-loader.ts';
import { useInView } from './useInView.ts';

export type ThumbnailState =
  { kind: 'waiting' } | { kind: 'loading' } | { kind: 'loaded'; url: string } | { kind: 'failed'; error: unknown };

/**
 * The thumbnail (or, with `type` MACRO, the scanner's macro picture) of an image, fetched with the bearer token once
 * its element comes into view. `ref` goes on the element that marks the picture's place. Images that have no such
 * picture yet (not available, no macro): pass enabled false.
 */
export function useThumbnail<T extends Element>(
  imageId: string,
  enabled: boolean,
  type: PictureType = 'SMALL',
): { ref: (element: T | null) => void; state: ThumbnailState } {
  const [ref, inView] = useInView<T>();
  const [state, setState] = useState<ThumbnailState>(() => {
    const url = enabled ? peekPicture(imageId, type) : undefined;
    return url ? { kind: 'loaded', url } : { kind: 'waiting' };
  });

  useEffect(() => {
    if (!enabled || !inView) {
      setState({ kind: 'waiting' });
      return;
    }
    let current = true;
    retainPicture(imageId, type);
    const cached = peekPicture(imageId, type);
    setState(cached ? { kind: 'loaded', url: cached } : { kind: 'loading' });
    if (!cached) {
      loadThumbnail(imageId, type).then(
        (url) => current && setState({ kind: 'loaded', url }),
        (error: unknown) => current && setState({ kind: 'failed', error }),
      );
    }
    return () => {
      current = false;
      releasePicture(imageId, type);
    };
  }, [imageId, enabled, inView, type]);

  return { ref, state };
}
