import { DETECTION_MESSAGES, UNCLASSIFIED_DETECTION } from '@pathology/contract';
import { describe, expect, it } from 'vitest';
import { colorOf, parseDetectionFeature } from './detection-feature.ts';
import { objectAtPoint } from './detection-point.ts';

const size = { width: 1000, height: 800 };
const ring = [
  [10, 10],
  [20.04, 10],
  [20, 20],
  [10, 10],
];

describe('detection features', () => {
  it('reads a QuPath cell: polygon, class name and colour, measurements', () => {
    const parsed = parseDetectionFeature(
      {
        type: 'Feature',
        geometry: { type: 'Polygon', coordinates: [ring] },
        properties: {
          objectType: 'cell',
          classification: { name: 'Tumor', color: [200, 0, 0] },
          measurements: { Area: 12.5 },
        },
      },
      size,
    );
    expect(parsed).toEqual({
      className: 'Tumor',
      color: '#c80000',
      bbox: [10, 10, 20, 20],
      geometry: JSON.stringify({
        type: 'Polygon',
        coordinates: [
          [
            [10, 10],
            [20, 10],
            [20, 20],
            [10, 10],
          ],
        ],
      }),
      measurements: '{"Area":12.5}',
      // Counted toward the import's limit of points (issue 46).
      vertices: 4,
    });
  });

  it('reads HistomicsTK labels and leaves classless objects Unclassified', () => {
    const feature = (properties: object) => ({
      type: 'Feature',
      geometry: { type: 'MultiPolygon', coordinates: [[ring], [ring]] },
      properties,
    });
    expect(
      parseDetectionFeature(feature({ label: { value: 'Lymphocyte' }, lineColor: 'rgb(0,255,0)' }), size),
    ).toMatchObject({ className: 'Lymphocyte', color: '#00ff00' });
    expect(parseDetectionFeature(feature({}), size)).toMatchObject({
      className: UNCLASSIFIED_DETECTION,
      color: undefined,
    });
  });

  it('refuses what is not a detection, with the reason', () => {
    const polygon = (coordinates: unknown) => ({ type: 'Feature', geometry: { type: 'Polygon', coordinates } });
    expect(parseDetectionFeature({ type: 'Thing' }, size)).toBe(DETECTION_MESSAGES.notFeature);
    expect(parseDetectionFeature(polygon([ring.slice(0, 3)]), size)).toBe(DETECTION_MESSAGES.badGeometry);
    expect(parseDetectionFeature(polygon([[...ring.slice(0, 3), [11, 11]]]), size)).toBe(
      DETECTION_MESSAGES.badGeometry,
    );
    expect(
      parseDetectionFeature(
        polygon([
          [
            [0, 0],
            ['a', 1],
            [1, 1],
            [0, 0],
          ],
        ]),
        size,
      ),
    ).toBe(DETECTION_MESSAGES.badGeometry);
    expect(
      parseDetectionFeature(
        polygon([
          [
            [0, 0],
            [1001, 0],
            [1, 1],
            [0, 0],
          ],
        ]),
        size,
      ),
    ).toBe(DETECTION_MESSAGES.outsideImage);
    expect(
      parseDetectionFeature(
        polygon([
          [
            [-1, 0],
            [10, 0],
            [1, 1],
            [-1, 0],
          ],
        ]),
        size,
      ),
    ).toBe(DETECTION_MESSAGES.outsideImage);
  });

  it('reads colours as QuPath and HistomicsTK write them', () => {
    expect(colorOf(-16_776_961 >>> 0)).toBe('#0000ff');
    expect(colorOf(0x00ff00)).toBe('#00ff00');
    expect(colorOf('rgba(1, 2, 3, 0.5)')).toBe('#010203');
    expect(colorOf('#ABCDEF')).toBe('#abcdef');
    expect(colorOf([300, 0, 0])).toBeUndefined();
  });

  it('finds the object under a point by its outline, not just its box', () => {
    const triangle = { geometry: JSON.stringify({ type: 'Polygon', coordinates: [ring] }) };
    expect(objectAtPoint([triangle], 18, 12)).toBe(triangle);
    expect(objectAtPoint([triangle], 12, 18)).toBeUndefined();
  });
});
