import type { ImagePoint } from '@pathology/contract';
import OpenSeadragon from 'openseadragon';
import { insideImage } from './point-picking.ts';

/**
 * Listens to plain clicks (not drags) on a viewer and reports them in image pixels, with whether they fell on the
 * image (the glass around it is part of the canvas); shows numbered markers at the given points. Returns the clean-up.
 */
export function pickPoints(
  viewer: OpenSeadragon.Viewer,
  points: readonly (ImagePoint | undefined)[],
  onPick: (point: ImagePoint, inside: boolean) => void,
): () => void {
  const item = viewer.world.getItemAt(0);
  if (!item) return () => undefined;
  const markers = points.flatMap((point, index) => {
    if (!point) return [];
    const element = document.createElement('div');
    element.className = 'compare-marker';
    element.textContent = String(index + 1);
    element.dataset.testid = 'compare-marker';
    Object.assign(element.style, {
      width: '22px',
      height: '22px',
      borderRadius: '50%',
      border: '2px solid white',
      background: 'var(--mantine-color-orange-6)',
      color: 'white',
      font: '600 12px/18px sans-serif',
      textAlign: 'center',
      boxShadow: '0 0 0 1px rgba(0,0,0,.4)',
      pointerEvents: 'none',
    });
    viewer.addOverlay({
      element,
      location: item.imageToViewportCoordinates(point[0], point[1]),
      placement: OpenSeadragon.Placement.CENTER,
    });
    return [element];
  });
  const onClick = (event: OpenSeadragon.CanvasClickEvent) => {
    if (!event.quick) return;
    const at = item.viewportToImageCoordinates(viewer.viewport.pointFromPixel(event.position, true));
    const size = item.getContentSize();
    const point: ImagePoint = [at.x, at.y];
    onPick(point, insideImage(point, [size.x, size.y]));
  };
  viewer.addHandler('canvas-click', onClick);
  return () => {
    viewer.removeHandler('canvas-click', onClick);
    for (const element of markers) viewer.removeOverlay(element);
  };
}
