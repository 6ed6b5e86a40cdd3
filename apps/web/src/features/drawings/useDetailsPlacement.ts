import type { DrawingGeometry } from '@pathology/contract';
import type OpenSeadragon from 'openseadragon';
import { useEffect, type RefObject } from 'react';
import { placeBeside } from './details-placement.ts';
import { boxOf, type Box } from './drawing-geometry.ts';
import { viewTransform } from './osd-view-transform.ts';
import { toScreen } from './view-transform.ts';

function screenBox(viewer: OpenSeadragon.Viewer, geometry: DrawingGeometry): Box | null {
  const transform = viewTransform(viewer);
  if (!transform) return null;
  const { minX, minY, maxX, maxY } = boxOf(geometry);
  // All four corners: a rotated view turns the image's box.
  const corners = [
    toScreen(transform, [minX, minY]),
    toScreen(transform, [maxX, minY]),
    toScreen(transform, [minX, maxY]),
    toScreen(transform, [maxX, maxY]),
  ];
  const xs = corners.map(([x]) => x);
  const ys = corners.map(([, y]) => y);
  return { minX: Math.min(...xs), minY: Math.min(...ys), maxX: Math.max(...xs), maxY: Math.max(...ys) };
}

function relativeBox(element: HTMLElement, to: HTMLElement): Box {
  const rect = element.getBoundingClientRect();
  const origin = to.getBoundingClientRect();
  return {
    minX: rect.left - origin.left,
    minY: rect.top - origin.top,
    maxX: rect.right - origin.left,
    maxY: rect.bottom - origin.top,
  };
}

/** On the outer element of the viewer's panels (detections, AI results, layers): the details card keeps off them. */
const VIEWER_PANEL_ATTRIBUTE = 'data-viewer-panel';

/** The panels shown over the slide: siblings of the viewer's element, in that element's pixels. */
function panelBoxes(container: HTMLElement): Box[] {
  const panels = container.parentElement?.querySelectorAll<HTMLElement>(`[${VIEWER_PANEL_ATTRIBUTE}]`) ?? [];
  return [...panels].filter((panel) => panel.offsetParent !== null).map((panel) => relativeBox(panel, container));
}

/**
 * Keeps the details card beside the selected drawing while the slide moves: its position is written
 * straight to the card's style on every viewport change, without a React render per frame.
 */
export function useDetailsPlacement(
  viewer: OpenSeadragon.Viewer | null,
  geometry: DrawingGeometry | undefined,
  card: RefObject<HTMLElement | null>,
  toolbar: RefObject<HTMLElement | null>,
): void {
  useEffect(() => {
    if (!viewer || !geometry) return undefined;
    const place = () => {
      const element = card.current;
      const shape = screenBox(viewer, geometry);
      if (!element || !shape) return;
      const container = viewer.element;
      const reserved = toolbar.current
        ? relativeBox(toolbar.current, container)
        : { minX: 0, minY: 0, maxX: 0, maxY: 0 };
      const { left, top } = placeBeside(
        shape,
        { width: element.offsetWidth, height: element.offsetHeight },
        { width: container.clientWidth, height: container.clientHeight },
        reserved,
        panelBoxes(container),
      );
      element.style.transform = `translate(${Math.round(left)}px, ${Math.round(top)}px)`;
      element.style.visibility = 'visible';
    };
    place();
    const events = ['viewport-change', 'resize', 'rotate'] as const;
    for (const event of events) viewer.addHandler(event, place);
    const resized = new ResizeObserver(place);
    if (card.current) resized.observe(card.current);
    // A panel that opens or grows (the detections' list) moves the card out of its way.
    const panels = viewer.element.parentElement?.querySelectorAll(`[${VIEWER_PANEL_ATTRIBUTE}]`) ?? [];
    for (const panel of panels) resized.observe(panel);
    return () => {
      for (const event of events) viewer.removeHandler(event, place);
      resized.disconnect();
    };
  }, [viewer, geometry, card, toolbar]);
}
