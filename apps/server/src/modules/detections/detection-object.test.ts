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
    const parsed = JSON.parse(objectsJson(rows)) as unknown[];
    expect(parsed).toEqual(rows.map(objectOf));
    for (const object of parsed) expect(DetectionObjectSchema.parse(object)).toEqual(object);
    expect(objectsJson([])).toBe('[]');
  });
});
