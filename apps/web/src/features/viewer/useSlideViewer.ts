import type OpenSeadragon from 'openseadragon';
import { useEffect, useRef, useState } from 'react';
import { useAuth } from 'react-oidc-context';
import { createSlideViewer, loadTileSource, switchLayer, tileHeaders } from './osd-viewer.ts';
import { reviveFailedTiles } from './tile-revival.ts';

export type SlideState = { status: 'loading' } | { status: 'ready' } | { status: 'error'; error: unknown };

/** Renewing headers after failed tiles at most this often (a renewed token may be why they failed). */
const HEADER_REFRESH_MS = 5_000;

/**
 * An OpenSeadragon viewer in `element` showing the layer at `layerUrl` (its info.json) of image `imageId`. A new
 * image opens at home with no rotation; another layer of the same image keeps the viewport. Tiles carry the
 * bearer token, renewed whenever the session renews it.
 */
export function useSlideViewer(element: HTMLElement | null, imageId: string, layerUrl: string | undefined) {
  const [viewer, setViewer] = useState<OpenSeadragon.Viewer | null>(null);
  const [state, setState] = useState<SlideState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const openedImage = useRef<string | undefined>(undefined);
  const wantedLayer = useRef<string | undefined>(undefined);
  const token = useAuth().user?.access_token;

  useEffect(() => {
    if (!element) return undefined;
    const created = createSlideViewer(element, {});
    let refreshedAt = 0;
    const refreshHeaders = () => {
      if (Date.now() - refreshedAt < HEADER_REFRESH_MS) return;
      refreshedAt = Date.now();
      void tileHeaders().then((headers) => {
        if (created.world) created.setAjaxHeaders(headers, true);
      });
    };
    created.addHandler('tile-load-failed', refreshHeaders);
    // The navigator is a viewer of its own, with tiles of its own that can fail too.
    const stopRevival = reviveFailedTiles([created, created.navigator].filter(Boolean));
    created.addHandler('open', () => setState({ status: 'ready' }));
    created.addHandler('open-failed', (event) => setState({ status: 'error', error: new Error(event.message) }));
    setViewer(created);
    return () => {
      openedImage.current = undefined;
      setViewer(null);
      stopRevival();
      created.destroy();
    };
  }, [element]);

  // The session renewed the token: later tile requests (and retries of queued ones) use the new one.
  useEffect(() => {
    if (!viewer || !token) return undefined;
    let current = true;
    void tileHeaders().then((headers) => {
      if (current) viewer.setAjaxHeaders(headers, true);
    });
    return () => {
      current = false;
    };
  }, [viewer, token]);

  useEffect(() => {
    if (!viewer || !layerUrl) return undefined;
    const controller = new AbortController();
    const sameImage = openedImage.current === imageId && viewer.world.getItemCount() > 0;
    wantedLayer.current = layerUrl;
    if (!sameImage) setState({ status: 'loading' });
    const fail = (error: unknown) => {
      if (!controller.signal.aborted) setState({ status: 'error', error });
    };
    void (async () => {
      try {
        viewer.setAjaxHeaders(await tileHeaders(), true);
        const source = await loadTileSource(layerUrl, controller.signal);
        if (controller.signal.aborted) return;
        if (sameImage) {
          switchLayer(viewer, source, () => wantedLayer.current === layerUrl, fail);
        } else {
          viewer.viewport.setRotation(0, true);
          viewer.open({ tileSource: source });
          openedImage.current = imageId;
        }
      } catch (error) {
        fail(error);
      }
    })();
    return () => controller.abort();
  }, [viewer, imageId, layerUrl, attempt]);

  const retry = () => {
    openedImage.current = undefined;
    setAttempt((count) => count + 1);
  };

  return { viewer, state, retry };
}
