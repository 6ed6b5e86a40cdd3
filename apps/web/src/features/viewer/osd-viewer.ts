import OpenSeadragon from 'openseadragon';
import { getAccessToken } from '../../api/client.ts';
import { toApiError } from '../../api/errors.ts';

/** A double click zooms in by this factor (buttons and +/- step to the next power of two instead). */
export const ZOOM_STEP = 2;
/** How far past one screen pixel per image pixel the user may zoom (×80 on a ×20 scan). */
export const MAX_ZOOM_PIXEL_RATIO = 4;

/** The Authorization header for tiles and info.json; the IIIF server refuses requests without it. */
export async function tileHeaders(): Promise<Record<string, string>> {
  const token = await getAccessToken();
  return token ? { Authorization: `Bearer ${token}` } : {};
}

/**
 * GET of a layer's info.json with the bearer token, parsed, to hand to OpenSeadragon as the tile source (it would
 * fetch the URL without our header). Its `@id` is made same-origin: the server names itself by the host it was
 * asked for, which behind a proxy or the dev server is not the address the browser uses.
 */
export async function loadTileSource(infoUrl: string, signal?: AbortSignal): Promise<Record<string, unknown>> {
  const response = await fetch(infoUrl, { headers: { Accept: 'application/json', ...(await tileHeaders()) }, signal });
  const text = await response.text();
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = text;
  }
  if (!response.ok) throw toApiError(response.status, body);
  if (typeof body !== 'object' || body === null) throw new Error('info.json is not a JSON object');
  const serviceUrl = new URL(infoUrl.replace(/\/info\.json$/, ''), window.location.origin).href;
  return { ...(body as Record<string, unknown>), '@id': serviceUrl };
}

let softwareWebGl: boolean | undefined;

/**
 * Whether WebGL is drawn by the CPU (SwiftShader, llvmpipe: virtual machines and remote desktops without a GPU). There
 * OpenSeadragon's WebGL drawer pays a texture upload and a read-back per tile in software, and its canvas drawer
 * paints the same tiles several times faster; on a real GPU the WebGL drawer stays. Asked once per page.
 */
export function hasSoftwareWebGl(): boolean {
  if (softwareWebGl !== undefined) return softwareWebGl;
  try {
    const gl = document.createElement('canvas').getContext('webgl');
    const info = gl?.getExtension('WEBGL_debug_renderer_info');
    const renderer = gl ? String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER)) : '';
    gl?.getExtension('WEBGL_lose_context')?.loseContext();
    softwareWebGl = /swiftshader|llvmpipe|software/i.test(renderer);
  } catch {
    softwareWebGl = false;
  }
  return softwareWebGl;
}

/** An OpenSeadragon viewer for slides: IIIF tiles read with the token, navigator, no built-in buttons. */
export function createSlideViewer(element: HTMLElement, headers: Record<string, string>): OpenSeadragon.Viewer {
  const viewer = OpenSeadragon({
    element,
    drawer: hasSoftwareWebGl() ? 'canvas' : ['webgl', 'canvas'],
    // Our own toolbar and keyboard shortcuts replace the built-in buttons and keys (arrows go to previous/next).
    showNavigationControl: false,
    keyboardNavEnabled: false,
    showNavigator: true,
    navigatorPosition: 'BOTTOM_RIGHT',
    navigatorSizeRatio: 0.16,
    navigatorAutoFade: false,
    // Tiles go through XHR so the Authorization header can be sent; blobs also keep the canvas untainted (snapshot).
    loadTilesWithAjax: true,
    ajaxHeaders: headers,
    tileRetryMax: 2,
    tileRetryDelay: 1500,
    maxZoomPixelRatio: MAX_ZOOM_PIXEL_RATIO,
    zoomPerClick: ZOOM_STEP,
    animationTime: 0.6,
    gestureSettingsMouse: { clickToZoom: false, dblClickToZoom: true },
    gestureSettingsTouch: { pinchRotate: false },
  });
  // The built-in full-page mode is replaced by the page's own full screen (the top bar and panels come along).
  viewer.addHandler('pre-full-page', (event) => {
    event.preventDefaultAction = true;
  });
  return viewer;
}

/** Screen (CSS) pixels per full-resolution image pixel, now or (`target`) where the view is going; undefined before an image is open. */
export function currentImageZoom(viewer: OpenSeadragon.Viewer, target = false): number | undefined {
  const item = viewer.world.getItemAt(0);
  if (!item) return undefined;
  // Every layer of an image has the same size, so any item gives the same answer (the viewport's own helper warns
  // while two layers overlap during a switch).
  return item.viewportToImageZoom(viewer.viewport.getZoom(!target));
}

/**
 * Shows another layer of the open image without touching the viewport (bounds, zoom, rotation stay): the new layer
 * is added above the old one and the old one removed once the new one is fully drawn, so nothing flickers. `isWanted`
 * says whether the layer is still the one asked for when it arrives (the user may have moved on).
 */
export function switchLayer(
  viewer: OpenSeadragon.Viewer,
  tileSource: Record<string, unknown>,
  isWanted: () => boolean,
  onError: (error: unknown) => void,
): void {
  viewer.addTiledImage({
    tileSource,
    index: viewer.world.getItemCount(),
    success: (event) => {
      const { item } = event as unknown as { item: OpenSeadragon.TiledImage };
      const settle = () => {
        if (!isWanted()) {
          viewer.world.removeItem(item);
          return;
        }
        for (let index = viewer.world.getItemCount() - 1; index >= 0; index -= 1) {
          const other = viewer.world.getItemAt(index);
          if (other !== item) viewer.world.removeItem(other);
        }
      };
      if (item.getFullyLoaded()) {
        settle();
        return;
      }
      const onLoaded = (change: { fullyLoaded: boolean }) => {
        if (!change.fullyLoaded) return;
        item.removeHandler('fully-loaded-change', onLoaded);
        settle();
      };
      item.addHandler('fully-loaded-change', onLoaded);
    },
    error: onError,
  });
}
