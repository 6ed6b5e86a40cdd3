import type { Position } from '@pathology/contract';

/** Coordinates as x0, y0, x1, y1, …: one array for a whole outline rather than one per point. */
export type FlatCoordinates = ArrayLike<number>;

/** Squared distance from point p to the segment a–b, all given by their index in `xy`. */
function squaredSegmentDistance(xy: FlatCoordinates, p: number, a: number, b: number): number {
  let x = xy[2 * a]!;
  let y = xy[2 * a + 1]!;
  let dx = xy[2 * b]! - x;
  let dy = xy[2 * b + 1]! - y;
  const px = xy[2 * p]!;
  const py = xy[2 * p + 1]!;
  if (dx !== 0 || dy !== 0) {
    const t = ((px - x) * dx + (py - y) * dy) / (dx * dx + dy * dy);
    if (t > 1) {
      x = xy[2 * b]!;
      y = xy[2 * b + 1]!;
    } else if (t > 0) {
      x += dx * t;
      y += dy * t;
    }
  }
  dx = px - x;
  dy = py - y;
  return dx * dx + dy * dy;
}

/** Indexes of the points farther than the tolerance from the last one kept; the first and last always stay. */
function radialPass(xy: FlatCoordinates, count: number, squaredTolerance: number): Int32Array {
  const kept = new Int32Array(count);
  let length = 1;
  let previous = 0;
  for (let i = 1; i < count; i++) {
    const dx = xy[2 * i]! - xy[2 * previous]!;
    const dy = xy[2 * i + 1]! - xy[2 * previous + 1]!;
    if (dx * dx + dy * dy > squaredTolerance) {
      kept[length++] = i;
      previous = i;
    }
  }
  if (previous !== count - 1) kept[length++] = count - 1;
  return kept.subarray(0, length);
}

/** Douglas–Peucker over the points `candidates` names, with a stack instead of recursion. */
function douglasPeucker(xy: FlatCoordinates, candidates: Int32Array, squaredTolerance: number): Position[] {
  const keep = new Uint8Array(candidates.length);
  keep[0] = 1;
  keep[candidates.length - 1] = 1;
  const stack = [0, candidates.length - 1];
  while (stack.length > 0) {
    const last = stack.pop()!;
    const first = stack.pop()!;
    let farthest = 0;
    let index = -1;
    for (let i = first + 1; i < last; i++) {
      const distance = squaredSegmentDistance(xy, candidates[i]!, candidates[first]!, candidates[last]!);
      if (distance > farthest) {
        farthest = distance;
        index = i;
      }
    }
    if (farthest > squaredTolerance) {
      keep[index] = 1;
      stack.push(first, index, index, last);
    }
  }
  const points: Position[] = [];
  for (let i = 0; i < candidates.length; i++) {
    if (keep[i] === 1) points.push([xy[2 * candidates[i]!]!, xy[2 * candidates[i]! + 1]!]);
  }
  return points;
}

/** Below this many points an outline is drawn as it is at every zoom. */
const SIMPLIFY_FROM = 16;

/**
 * The outline with the points a screen at this zoom cannot show removed: none moves it by more than
 * `tolerance` (radial distance, then Douglas–Peucker, as simplify-js does). Written for flat
 * coordinates: a library taking {x, y} objects would make millions of them each time a layer of
 * thousands of outlines opens. Short outlines come back whole.
 */
export function simplifyFlat(xy: FlatCoordinates, count: number, tolerance: number): Position[] {
  if (count < SIMPLIFY_FROM) {
    return Array.from({ length: count }, (_, i): Position => [xy[2 * i]!, xy[2 * i + 1]!]);
  }
  const squaredTolerance = tolerance * tolerance;
  return douglasPeucker(xy, radialPass(xy, count, squaredTolerance), squaredTolerance);
}

export function simplifyPath(path: readonly Position[], tolerance: number): Position[] {
  return simplifyFlat(path.flat(), path.length, tolerance);
}
