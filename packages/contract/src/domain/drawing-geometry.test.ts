import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  DRAWING_MESSAGES,
  DrawingGeometrySchema,
  LineStringGeometrySchema,
  PolygonGeometrySchema,
} from './drawings.ts';

const square = [
  [0, 0],
  [10, 0],
  [10, 10],
  [0, 0],
];

describe('drawing geometry', () => {
  it('takes lines and closed rings of [x, y] pairs of finite numbers, and nothing else', () => {
    expect(
      DrawingGeometrySchema.safeParse({
        type: 'LineString',
        coordinates: [
          [1, 2],
          [3.5, -4],
        ],
      }).success,
    ).toBe(true);
    expect(DrawingGeometrySchema.safeParse({ type: 'Polygon', coordinates: [square] }).success).toBe(true);
    for (const bad of [
      [[1, 2], [3]],
      [
        [1, 2],
        [3, 4, 5],
      ],
      [
        [1, 2],
        ['3', 4],
      ],
      [
        [1, 2],
        [Infinity, 4],
      ],
      [[1, 2], null],
    ]) {
      const parsed = DrawingGeometrySchema.safeParse({ type: 'LineString', coordinates: bad });
      expect(
        parsed.error?.issues.map((issue) => issue.message),
        JSON.stringify(bad),
      ).toEqual([DRAWING_MESSAGES.coordinateNotFinite]);
    }
    expect(
      PolygonGeometrySchema.safeParse({ type: 'Polygon', coordinates: [square.slice(0, 3)] }).error?.issues[0]?.message,
    ).toBe(DRAWING_MESSAGES.ringTooShort);
    expect(
      PolygonGeometrySchema.safeParse({ type: 'Polygon', coordinates: [[...square.slice(0, 3), [1, 1]]] }).error
        ?.issues[0]?.message,
    ).toBe(DRAWING_MESSAGES.ringNotClosed);
    expect(LineStringGeometrySchema.safeParse({ type: 'LineString', coordinates: [[1, 2]] }).success).toBe(false);
  });

  it('describes its coordinates in the OpenAPI document as lists of number pairs', () => {
    const schema = z.toJSONSchema(LineStringGeometrySchema, { unrepresentable: 'any' });
    expect(schema.properties?.coordinates).toMatchObject({
      type: 'array',
      minItems: 2,
      items: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], minItems: 2, maxItems: 2 },
    });
  });
});
