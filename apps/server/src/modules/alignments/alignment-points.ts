import { beyondImageReach, MESSAGES, type AlignmentPointPair, type ImageSize } from '@pathology/contract';

type Point = readonly [number, number];

/** Closest two points of one image may be, and a third point to the line through the other two, in pixels. */
const MIN_SEPARATION = 1;

/** Whether two points lie apart and, with three, none lies within a pixel of the line through the others. */
function spread(points: readonly Point[]): boolean {
  const [p, q, r] = points as [Point, Point, Point | undefined];
  const length = Math.hypot(q[0] - p[0], q[1] - p[1]);
  if (r === undefined) return length >= MIN_SEPARATION;
  const sides = [length, Math.hypot(r[0] - q[0], r[1] - q[1]), Math.hypot(p[0] - r[0], p[1] - r[1])];
  const twiceArea = Math.abs((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]));
  // The smallest height of the triangle is the one onto its longest side.
  return twiceArea / Math.max(...sides) >= MIN_SEPARATION;
}

/**
 * Why these pairs cannot be an alignment of these two images, or null: each point must lie within its image's
 * reach of its edges (as a drawing's), and the points of each image must give a transform: two apart, three not on
 * one line. Sizes are null for an image not yet converted, on which no point can be judged.
 */
export function alignmentPointsProblem(
  points: readonly AlignmentPointPair[],
  imageSize: ImageSize | null,
  otherSize: ImageSize | null,
): string | null {
  const outside = (point: Point, size: ImageSize | null) => size === null || beyondImageReach(point, size);
  if (points.some(({ image, other }) => outside(image, imageSize) || outside(other, otherSize))) {
    return MESSAGES.alignmentPointOutsideImage;
  }
  if (!spread(points.map(({ image }) => image)) || !spread(points.map(({ other }) => other))) {
    return MESSAGES.alignmentPointsDegenerate;
  }
  return null;
}
