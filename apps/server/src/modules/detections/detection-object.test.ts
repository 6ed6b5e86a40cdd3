import { DetectionObjectSchema } from '@pathology/contract';
import { describe, expect, it } from 'vitest';
import { objectOf, objectsJson } from './detection-object.ts';

describe('detections as the API answers them', () => {
  it('puts stored JSON texts together into the same objects that parsing them gives', () => {
    const rows = [
      {
        id: '9007199254740993',
        classIndex: 2,
        geometry: '{"type":"Polygon","coordinates":[[[1,2],[3.5,4],[5,6.25],[1,2]]]}',
        measurements: '{"Nucleus: Area µm^2":12,"note":"a \\"quoted\\" \\\\ value"}',
      },
      { id: '7', classIndex: 0, geometry: '{"type":"MultiPolygon","coordinates":[]}', measurements: null },
    ];
    const parsed = JSON.parse(objectsJson(rows).toString('utf8')) as unknown[];
    expect(parsed).toEqual(rows.map(objectOf));
    for (const object of parsed) expect(DetectionObjectSchema.parse(object)).toEqual(object);
    expect(objectsJson([]).toString()).toBe('[]');
    expect(JSON.parse(objectsJson(rows, '{"data":', '}').toString())).toEqual({ data: parsed });
  });

  // Its first buffer holds ~2 MB: a bigger view grows it, and nothing is cut at the seam.
  it('grows past its first buffer', () => {
    const measurements = JSON.stringify({ note: 'µ'.repeat(1_000) });
    const rows = Array.from({ length: 2_000 }, (_, index) => ({
      id: String(index),
      classIndex: index % 4,
      geometry: '{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}',
      measurements,
    }));
    const parsed = JSON.parse(objectsJson(rows).toString('utf8')) as unknown[];
    expect(parsed).toEqual(rows.map(objectOf));
  });
});
