import type { Box } from './drawing-geometry.ts';

export interface Size {
  width: number;
  height: number;
}

export interface Placement {
  left: number;
  top: number;
}

/** Space between the drawing and the card, and between the card and the viewer's edge. */
const GAP = 16;

const overlaps = (a: Box, b: Box) => a.minX < b.maxX && b.minX < a.maxX && a.minY < b.maxY && b.minY < a.maxY;

/**
 * Where the selected drawing's details card goes (viewer-element pixels): beside the drawing on screen —
 * right of it, else left, else below, else above — so the card never covers the shape just drawn nor
 * the slide next to it where the next one starts. `reserved` is screen space the card must keep off (the
 * toolbar), `panels` the viewer's other panels (detections, AI results, layers), which it must not cover either.
 * When nothing fits (a shape filling the view) the card takes a bottom corner clear of the panels, the right
 * one first.
 */
export function placeBeside(
  shape: Box,
  card: Size,
  viewer: Size,
  reserved: Box,
  panels: readonly Box[] = [],
): Placement {
  const clampTop = (top: number) => Math.min(Math.max(top, reserved.maxY + GAP), viewer.height - card.height - GAP);
  const clampLeft = (left: number) => Math.min(Math.max(left, GAP), viewer.width - card.width - GAP);
  const candidates: Placement[] = [
    { left: shape.maxX + GAP, top: clampTop(shape.minY) },
    { left: shape.minX - GAP - card.width, top: clampTop(shape.minY) },
    { left: clampLeft(shape.minX), top: shape.maxY + GAP },
    { left: clampLeft(shape.minX), top: shape.minY - GAP - card.height },
  ];
  const boxAt = ({ left, top }: Placement) => ({
    minX: left,
    minY: top,
    maxX: left + card.width,
    maxY: top + card.height,
  });
  const clear = (box: Box) => !overlaps(box, reserved) && !panels.some((panel) => overlaps(box, panel));
  const fits = (placement: Placement) => {
    const box = boxAt(placement);
    return (
      placement.left >= GAP &&
      placement.top >= GAP &&
      box.maxX <= viewer.width - GAP &&
      box.maxY <= viewer.height - GAP &&
      clear(box) &&
      !overlaps(box, shape)
    );
  };
  const bottom = viewer.height - card.height - GAP;
  const corners: Placement[] = [
    { left: viewer.width - card.width - GAP, top: bottom },
    { left: GAP, top: bottom },
  ];
  return candidates.find(fits) ?? corners.find((corner) => clear(boxAt(corner))) ?? corners[0]!;
}
