import type { Position } from '@pathology/contract';
import { describe, expect, it } from 'vitest';
import {
  boxOf,
  geometryFromGesture,
  handlesOf,
  hits,
  isMeaningfulGesture,
  reshape,
  translate,
} from './drawing-geometry.ts';

const square: Position[] = [
  [0, 0],
  [100, 0],
  [100, 100],
  [0, 100],
  [0, 0],
];

describe('drawing geometry', () => {
  it('makes each tool its geometry from the points of a gesture', () => {
    expect(
      geometryFromGesture('rectangle', [
        [100, 80],
        [0, 0],
      ]),
    ).toEqual({ type: 'Polygon', coordinates: [square.map(([x, y]) => [x, y * 0.8])] });
    expect(
      geometryFromGesture('ellipse', [
        [0, 0],
        [100, 50],
      ]),
    ).toEqual({ type: 'Ellipse', center: [50, 25], radii: [50, 25] });
    expect(
      geometryFromGesture('ruler', [
        [0, 0],
        [5, 5],
        [30, 40],
      ]),
    ).toEqual({
      type: 'LineString',
      coordinates: [
        [0, 0],
        [30, 40],
      ],
    });
    expect(geometryFromGesture('point', [[7, 8]])).toEqual({ type: 'Point', coordinates: [7, 8] });
    const outline: Position[] = [
      [0, 0],
      [10, 0],
      [10, 10],
    ];
    expect(geometryFromGesture('polygon', outline)).toEqual({ type: 'Polygon', coordinates: [[...outline, [0, 0]]] });
    expect(geometryFromGesture('freehand', outline, false)).toEqual({ type: 'LineString', coordinates: outline });
  });

  it('ignores slips of the hand but keeps a click for a point', () => {
    expect(
      isMeaningfulGesture('rectangle', [
        [10, 10],
        [12, 11],
      ]),
    ).toBe(false);
    expect(
      isMeaningfulGesture('rectangle', [
        [10, 10],
        [30, 11],
      ]),
    ).toBe(true);
    expect(
      isMeaningfulGesture('polygon', [
        [0, 0],
        [50, 0],
      ]),
    ).toBe(false);
    expect(isMeaningfulGesture('point', [[3, 3]])).toBe(true);
  });

  it('moves every kind of geometry', () => {
    const moved = translate({ type: 'Polygon', coordinates: [square] }, 10, -5);
    expect(moved.type === 'Polygon' && moved.coordinates[0]![2]).toEqual([110, 95]);
    expect(translate({ type: 'Ellipse', center: [1, 1], radii: [3, 4] }, 2, 2)).toEqual({
      type: 'Ellipse',
      center: [3, 3],
      radii: [3, 4],
    });
  });

  it('reshapes: a rectangle stays a rectangle, a ring stays closed, an ellipse changes one radius', () => {
    const rectangle = { type: 'Polygon' as const, coordinates: [square] };
    expect(handlesOf(rectangle)).toHaveLength(4);
    const dragged = reshape('rectangle', rectangle, 2, [150, 120]);
    expect(boxOf(dragged)).toEqual({ minX: 0, minY: 0, maxX: 150, maxY: 120 });
    const polygon = reshape('polygon', rectangle, 0, [-10, -10]);
    expect(polygon.type === 'Polygon' && polygon.coordinates[0]!.at(-1)).toEqual([-10, -10]);
    expect(reshape('ellipse', { type: 'Ellipse', center: [0, 0], radii: [5, 5] }, 1, [3, -9])).toEqual({
      type: 'Ellipse',
      center: [0, 0],
      radii: [5, 9],
    });
  });

  it('hits lines within the tolerance and closed shapes inside, but not in a hole', () => {
    const line = {
      type: 'LineString' as const,
      coordinates: [
        [0, 0],
        [100, 0],
      ] as Position[],
    };
    expect(hits(line, [50, 3], 4)).toBe(true);
    expect(hits(line, [50, 6], 4)).toBe(false);
    const hole: Position[] = [
      [40, 40],
      [60, 40],
      [60, 60],
      [40, 60],
      [40, 40],
    ];
    const donut = { type: 'Polygon' as const, coordinates: [square, hole] };
    expect(hits(donut, [20, 20], 1)).toBe(true);
    expect(hits(donut, [50, 50], 1)).toBe(false);
    expect(hits({ type: 'Ellipse', center: [0, 0], radii: [10, 5] }, [0, 4], 0.5)).toBe(true);
  });
});
