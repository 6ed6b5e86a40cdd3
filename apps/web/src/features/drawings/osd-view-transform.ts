import OpenSeadragon from 'openseadragon';
import type { ViewTransform } from './view-transform.ts';

/** The current image-to-screen transform of the viewer's first item, or null before an image is open. */
export function viewTransform(viewer: OpenSeadragon.Viewer): ViewTransform | null {
  const item = viewer.world.getItemAt(0);
  if (!item) return null;
  const unit = 1024;
  const origin = item.imageToViewerElementCoordinates(new OpenSeadragon.Point(0, 0));
  const alongX = item.imageToViewerElementCoordinates(new OpenSeadragon.Point(unit, 0));
  const alongY = item.imageToViewerElementCoordinates(new OpenSeadragon.Point(0, unit));
  const a = (alongX.x - origin.x) / unit;
  const b = (alongX.y - origin.y) / unit;
  return {
    a,
    b,
    c: (alongY.x - origin.x) / unit,
    d: (alongY.y - origin.y) / unit,
    e: origin.x,
    f: origin.y,
    scale: Math.hypot(a, b),
  };
}
