import { DETECTION_TILE_SIZE } from '@pathology/contract';
import { apiUrl } from '../case-images/fetch-binary.ts';
import { detectionsPath } from './detections.queries.ts';

export interface DetectionStyle {
  /** Class indexes not drawn. */
  hidden: readonly number[];
  fill: number;
  outline: number;
}

/** What OpenSeadragon 6 hands a tile source's download and expects back (its types describe an older version). */
interface TileJob {
  src: string;
  ajaxHeaders: Record<string, string> | null;
  userData: { controller?: AbortController };
  finish(data: ImageBitmap, request: null, dataType: 'imageBitmap'): void;
  fail(message: string, request: null): void;
}

/**
 * A tile read with fetch and decoded by createImageBitmap, both off the page's thread. OpenSeadragon's own download
 * copies each response into a Blob on the page's thread, which in a trace of panning and zooming over a million
 * detections took more of it than anything but drawing (their PNG tiles are several times the slide's JPEG ones).
 */
function downloadTile(job: TileJob): void {
  const controller = new AbortController();
  job.userData.controller = controller;
  fetch(job.src, { headers: job.ajaxHeaders ?? {}, signal: controller.signal })
    .then(async (response) => {
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return createImageBitmap(await response.blob());
    })
    .then(
      (bitmap) => job.finish(bitmap, null, 'imageBitmap'),
      (error: unknown) => {
        // An aborted job has been failed by OpenSeadragon itself already.
        if (!controller.signal.aborted) job.fail(String(error), null);
      },
    );
}

/** Levels below this (a slide smaller than 256 pixels) are never worth a request. */
const LOWEST_LEVEL = 8;

/**
 * An OpenSeadragon tile source over the server's detection tiles: the same size and level numbering as the slide,
 * so it lies exactly on it. The URL carries the style and the layer's version, so a cached tile is always right.
 */
export function detectionTileSource(
  imageId: string,
  layerId: string,
  size: { width: number; height: number },
  version: string,
  style: DetectionStyle,
) {
  const maxLevel = Math.ceil(Math.log2(Math.max(size.width, size.height, 1)));
  const query = {
    hide: [...style.hidden].sort((a, b) => a - b).join(','),
    fill: style.fill.toFixed(2),
    line: style.outline.toFixed(2),
    v: version,
  };
  const base = `${detectionsPath(imageId, layerId)}/tiles`;
  return {
    width: size.width,
    height: size.height,
    tileSize: DETECTION_TILE_SIZE,
    tileOverlap: 0,
    minLevel: Math.min(LOWEST_LEVEL, maxLevel),
    maxLevel,
    getTileUrl: (level: number, x: number, y: number) => apiUrl(`${base}/${level}/${x}/${y}`, query),
    downloadTileStart: downloadTile,
    downloadTileAbort: (job: TileJob) => job.userData.controller?.abort(),
  };
}
