import type { ImagePoint } from '@pathology/contract';

/** The pairs being clicked: a point on the first slide and the matching one on the other; either may be missing. */
export interface PickedPair {
  reference?: ImagePoint;
  other?: ImagePoint;
}

export type PickSide = 'reference' | 'other';

/** Puts a click into the first pair still missing that side, starting a new pair when all have it (at most `max`). */
export function addPick(pairs: readonly PickedPair[], side: PickSide, point: ImagePoint, max: number): PickedPair[] {
  const open = pairs.findIndex((pair) => pair[side] === undefined);
  if (open >= 0) return pairs.map((pair, index) => (index === open ? { ...pair, [side]: point } : pair));
  if (pairs.length >= max) return [...pairs];
  return [...pairs, { [side]: point }];
}

/** The complete pairs, as [other, reference]: the alignment maps the other slide onto the first. */
export function completePairs(pairs: readonly PickedPair[]): [ImagePoint, ImagePoint][] {
  return pairs.flatMap((pair) => (pair.reference && pair.other ? [[pair.other, pair.reference]] : []));
}

/** Whether a click may still add a point on `side`: it fills an open pair or starts one of at most `max`. */
export function canPick(pairs: readonly PickedPair[], side: PickSide, max: number): boolean {
  return pairs.some((pair) => pair[side] === undefined) || pairs.length < max;
}

/** Whether a point lies on the image (0 to its width and height, in image pixels). */
export function insideImage(point: ImagePoint, size: readonly [number, number]): boolean {
  return point[0] >= 0 && point[1] >= 0 && point[0] <= size[0] && point[1] <= size[1];
}
