import type { ImagePoint } from '@pathology/contract';
import { describe, expect, it } from 'vitest';
import {
  affineFromPoints,
  alignmentTransform,
  apply,
  compose,
  invert,
  normaliseDegrees,
  residuals,
  rotationAbout,
  scaling,
  similarityFromPoints,
  similarityPart,
  translation,
  type Affine,
} from './transforms.ts';

const close = (actual: ImagePoint, expected: ImagePoint, digits = 9) => {
  expect(actual[0]).toBeCloseTo(expected[0], digits);
  expect(actual[1]).toBeCloseTo(expected[1], digits);
};

const SAMPLE: ImagePoint[] = [
  [0, 0],
  [1234.5, 77],
  [-300, 4096],
  [98765, 43210],
];

describe('affine maps', () => {
  it('turns clockwise on a y-down screen: 90° takes right to down', () => {
    close(apply(rotationAbout(90), [1, 0]), [0, 1]);
    close(apply(rotationAbout(90, [10, 10]), [11, 10]), [10, 11]);
    close(apply(rotationAbout(90, [10, 10]), [10, 10]), [10, 10]);
  });

  it('round-trips every point through a map and its inverse', () => {
    const map = compose(translation([512, -80]), compose(rotationAbout(37.5, [200, 300]), scaling(0.2527)));
    const inverse = invert(map)!;
    for (const point of SAMPLE) close(apply(inverse, apply(map, point)), point, 6);
    close([similarityPart(compose(map, inverse)).scale, 0], [1, 0]);
  });

  it('has no inverse for a map that flattens the plane', () => {
    expect(invert({ a: 1, b: 2, c: 2, d: 4, e: 0, f: 0 })).toBeUndefined();
  });

  it('composes rotations by adding their angles, about any pivot', () => {
    const pivot: ImagePoint = [500, 250];
    const twice = compose(rotationAbout(30, pivot), rotationAbout(60, pivot));
    const once = rotationAbout(90, pivot);
    for (const point of SAMPLE) close(apply(twice, point), apply(once, point), 6);
    expect(similarityPart(twice).degrees).toBeCloseTo(90, 9);
    const full = [90, 90, 90, 90].reduce<Affine>((map, step) => compose(rotationAbout(step, pivot), map), scaling(1));
    for (const point of SAMPLE) close(apply(full, point), point, 6);
  });

  it('normalises angles into (-180, 180]', () => {
    expect(normaliseDegrees(270)).toBe(-90);
    expect(normaliseDegrees(-180)).toBe(180);
    expect(normaliseDegrees(540)).toBe(180);
    expect(normaliseDegrees(-30)).toBe(-30);
  });
});

describe('point alignment', () => {
  // The Ki-67 slide lies turned by 90° and scanned at twice the resolution, shifted on the glass.
  const truth = compose(translation([1000, 200]), compose(rotationAbout(90), scaling(0.5)));
  const pairsOf = (points: ImagePoint[]) => points.map((p) => [p, apply(truth, p)] as [ImagePoint, ImagePoint]);

  it('finds the similarity from two known point pairs', () => {
    const map = similarityFromPoints(
      pairsOf([
        [100, 100],
        [900, 500],
      ]),
    )!;
    for (const point of SAMPLE) close(apply(map, point), apply(truth, point), 6);
    expect(similarityPart(map).scale).toBeCloseTo(0.5, 12);
    expect(similarityPart(map).degrees).toBeCloseTo(90, 9);
  });

  it('finds the affine map from three known point pairs, shear included', () => {
    const sheared: Affine = { a: 1.1, b: 0.2, c: -0.35, d: 0.9, e: 40, f: -12 };
    const pairs = (
      [
        [0, 0],
        [1000, 30],
        [200, 800],
      ] as ImagePoint[]
    ).map((p) => [p, apply(sheared, p)] as [ImagePoint, ImagePoint]);
    const map = affineFromPoints(pairs)!;
    for (const key of ['a', 'b', 'c', 'd', 'e', 'f'] as const) expect(map[key]).toBeCloseTo(sheared[key], 9);
    expect(alignmentTransform(pairs)).toEqual(map);
  });

  it('refuses points that fix no transform: one pair, coinciding or collinear points', () => {
    expect(alignmentTransform(pairsOf([[1, 1]]))).toBeUndefined();
    expect(
      similarityFromPoints(
        pairsOf([
          [5, 5],
          [5, 5],
        ]),
      ),
    ).toBeUndefined();
    expect(
      affineFromPoints(
        pairsOf([
          [0, 0],
          [1, 1],
          [2, 2],
        ]),
      ),
    ).toBeUndefined();
  });

  it('has no residual where a turn and zoom fit exactly, and shows the shear that remains otherwise', () => {
    for (const value of residuals(
      pairsOf([
        [0, 0],
        [100, 0],
        [0, 100],
      ]),
    ))
      expect(value).toBeCloseTo(0, 9);
    const stretched = residuals([
      [
        [0, 0],
        [0, 0],
      ],
      [
        [100, 0],
        [100, 0],
      ],
      [
        [0, 100],
        [0, 130],
      ],
    ]);
    expect(Math.max(...stretched)).toBeGreaterThan(5);
    expect(Math.max(...stretched)).toBeLessThan(30);
  });
});
