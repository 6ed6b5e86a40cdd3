import { useEffect, useState } from 'react';
import { shouldRetry } from '../../app/query-client.ts';
import { loadThumbnail, peekPicture, releasePicture, retainPicture, type PictureType } from './thumbnail-loader.ts';
import { useInView } from './useInView.ts';

export type ThumbnailState =
  { kind: 'waiting' } | { kind: 'loading' } | { kind: 'loaded'; url: string } | { kind: 'failed'; error: unknown };

/**
 * Waits before a picture that failed for a reason that may pass (a lost connection, a busy server) is asked for again
 * while it is on screen: the first retries keep it loading, later ones run under its error, every 10 s at most.
 */
export const THUMBNAIL_RETRY_DELAYS_MS: readonly number[] = [1_000, 2_000, 5_000, 10_000];
const QUIET_RETRIES = 2;

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
    let timer: ReturnType<typeof setTimeout> | undefined;
    retainPicture(imageId, type);
    const cached = peekPicture(imageId, type);
    setState(cached ? { kind: 'loaded', url: cached } : { kind: 'loading' });
    const load = (retries: number) => {
      loadThumbnail(imageId, type).then(
        (url) => current && setState({ kind: 'loaded', url }),
        (error: unknown) => {
          if (!current) return;
          const mayPass = shouldRetry(0, error);
          if (!mayPass || retries >= QUIET_RETRIES) setState({ kind: 'failed', error });
          if (mayPass) {
            const delay = THUMBNAIL_RETRY_DELAYS_MS[Math.min(retries, THUMBNAIL_RETRY_DELAYS_MS.length - 1)];
            timer = setTimeout(() => load(retries + 1), delay);
          }
        },
      );
    };
    if (!cached) load(0);
    return () => {
      current = false;
      clearTimeout(timer);
      releasePicture(imageId, type);
    };
  }, [imageId, enabled, inView, type]);

  return { ref, state };
}
