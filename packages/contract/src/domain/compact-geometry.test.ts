import { describe, expect, it } from 'vitest';
import {
  compactGeometry,
  decodePath,
  decodePathInto,
  encodedPathsOf,
  encodePath,
  expandGeometry,
  roundGeometry,
} from './compact-geometry.ts';
import type { DrawingGeometry } from './drawings.ts';

describe('compact geometry', () => {
  it("is Google's encoded polyline algorithm", () => {
    // The example of the algorithm's documentation, at its precision of five decimals.
    const points: [number, number][] = [
      [38.5, -120.2],
      [40.7, -120.95],
      [43.252, -126.453],
    ];
    expect(encodePath(points, 1e5)).toBe('_p~iF~ps|U_ulLnnqC_mqNvxq`@');
    expect(decodePath('_p~iF~ps|U_ulLnnqC_mqNvxq`@', 1e5)).toEqual(points);
    expect(decodePath(encodePath(points))).toEqual([
      [38.5, -120.2],
      [40.7, -121],
      [43.3, -126.5],
    ]);
  });

  it('gives back exactly the rounded geometry, for every kind', () => {
    const geometries: DrawingGeometry[] = [
      { type: 'Point', coordinates: [1.26, 2] },
      {
        type: 'LineString',
        coordinates: [
          [0, 0],
          [123456.78, -5.55],
        ],
      },
      {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [10.04, 0],
            [10, 10.96],
            [0, 0],
          ],
          [
            [1, 1],
            [2, 1],
            [2, 2],
            [1, 1],
          ],
        ],
      },
      { type: 'Ellipse', center: [50.55, 50], radii: [10.01, 3] },
    ];
    for (const geometry of geometries) {
      const rounded = roundGeometry(geometry);
      expect(expandGeometry(compactGeometry(rounded))).toEqual(rounded);
      expect(roundGeometry(rounded)).toEqual(rounded);
    }
    const compact = compactGeometry(roundGeometry(geometries[2]!));
    expect(compact.type === 'Polygon' && compact.encoded).toHaveLength(2);
  });

  it('is about four characters a point for a hand-drawn outline', () => {
    const ring = Array.from({ length: 500 }, (_, i): [number, number] => [
      20_000 + 120 * Math.cos(i / 80),
      30_000 + 120 * Math.sin(i / 80),
    ]);
    expect(encodePath(ring).length / ring.length).toBeLessThan(5);
  });

  it('decodes into a flat array the same points as into pairs', () => {
    const ring: [number, number][] = [
      [10.5, -3.2],
      [120_000.1, 80_000],
      [0, 0],
      [10.5, -3.2],
    ];
    const encoded = encodePath(ring);
    const flat = new Float64Array(encoded.length);
    expect(decodePathInto(encoded, flat)).toBe(4);
    expect(Array.from(flat.subarray(0, 8))).toEqual(ring.flat());
    expect(decodePath(encoded)).toEqual(ring);
  });

  it('lists the encoded paths of lines and polygons, and none of points and ellipses', () => {
    const polygon = compactGeometry({
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [1, 0],
          [1, 1],
          [0, 0],
        ],
      ],
    });
    expect(encodedPathsOf(polygon)).toHaveLength(1);
    expect(encodedPathsOf({ type: 'LineString', encoded: 'abc' })).toEqual(['abc']);
    expect(encodedPathsOf({ type: 'Point', coordinates: [1, 2] })).toEqual([]);
  });
});
