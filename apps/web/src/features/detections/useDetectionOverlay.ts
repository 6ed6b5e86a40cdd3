import type OpenSeadragon from 'openseadragon';
import { useEffect, useRef } from 'react';
import { DetectionOverlay } from './detection-overlay.ts';
import type { detectionTileSource } from './detection-tiles.ts';

/** Keeps the detections' tiled image on the viewer in step with the chosen source (null hides it). */
export function useDetectionOverlay(
  viewer: OpenSeadragon.Viewer | null,
  ready: boolean,
  source: ReturnType<typeof detectionTileSource> | null,
): void {
  const overlay = useRef<DetectionOverlay | null>(null);
  useEffect(() => {
    if (!viewer || !ready) return undefined;
    overlay.current = new DetectionOverlay(viewer);
    return () => {
      overlay.current?.destroy();
      overlay.current = null;
    };
  }, [viewer, ready]);
  const url = source?.getTileUrl(0, 0, 0);
  useEffect(() => {
    overlay.current?.show(source);
    // The URL names everything the picture depends on; a new object with the same URL changes nothing.
  }, [url, viewer, ready]);
}
