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
 * toolbar). When nothing fits (a shape filling the view) the card takes the bottom-right corner.
 */
export function placeBeside(shape: Box, card: Size, viewer: Size, reserved: Box): Placement {
  const clampTop = (top: number) => Math.min(Math.max(top, reserved.maxY + GAP), viewer.height - card.height - GAP);
  const clampLeft = (left: number) => Math.min(Math.max(left, GAP), viewer.width - card.width - GAP);
  const candidates: Placement[] = [
    { left: shape.maxX + GAP, top: clampTop(shape.minY) },
    { left: shape.minX - GAP - card.width, top: clampTop(shape.minY) },
    { left: clampLeft(shape.minX), top: shape.maxY + GAP },
    { left: clampLeft(shape.minX), top: shape.minY - GAP - card.height },
  ];
  const fits = ({ left, top }: Placement) => {
    const box = { minX: left, minY: top, maxX: left + card.width, maxY: top + card.height };
    return (
      left >= GAP &&
      top >= GAP &&
      box.maxX <= viewer.width - GAP &&
      box.maxY <= viewer.height - GAP &&
      !overlaps(box, reserved) &&
      !overlaps(box, shape)
    );
  };
  return (
    candidates.find(fits) ?? {
      left: viewer.width - card.width - GAP,
      top: viewer.height - card.height - GAP,
    }
  );
}
