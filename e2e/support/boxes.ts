import type { Locator } from 'playwright-core';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The element's box on the page; fails when it is not shown. */
export async function boxOf(locator: Locator, what: string): Promise<Box> {
  const box = await locator.boundingBox();
  if (!box) throw new Error(`${what} is not shown`);
  return box;
}

/** Square pixels two boxes share (0: side by side or apart; a shared edge is not an overlap). */
export function overlapArea(a: Box, b: Box): number {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return width > 0.5 && height > 0.5 ? width * height : 0;
}

/** Whether `inner` lies within `outer`, give or take half a pixel of rounding. */
export function inside(inner: Box, outer: Box): boolean {
  return (
    inner.x >= outer.x - 0.5 &&
    inner.y >= outer.y - 0.5 &&
    inner.x + inner.width <= outer.x + outer.width + 0.5 &&
    inner.y + inner.height <= outer.y + outer.height + 0.5
  );
}

const show = (box: Box) =>
  `${Math.round(box.x)},${Math.round(box.y)} ${Math.round(box.width)}×${Math.round(box.height)}`;

/** A readable list of what is wrong, empty when nothing is: `a` and `b` must not overlap. */
export function apart(a: Box, b: Box, what: string): string[] {
  return overlapArea(a, b) > 0 ? [`${what} overlap (${show(a)} and ${show(b)})`] : [];
}

/** A readable list of what is wrong, empty when nothing is: `inner` must lie within `outer`. */
export function within(inner: Box, outer: Box, what: string): string[] {
  return inside(inner, outer) ? [] : [`${what} (${show(inner)} not within ${show(outer)})`];
}
