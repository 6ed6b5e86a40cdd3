import { Readable } from 'node:stream';
import { DETECTION_MESSAGES } from '@pathology/contract';
import { describe, expect, it } from 'vitest';
import { parseDetectionFeature } from './detection-feature.ts';
import { detectionsOf, featuresOf } from './detection-file.ts';

/** A stream of the text in pieces of `size` bytes. */
const streamOf = (text: string, size = 7) => {
  const bytes = Buffer.from(text);
  const pieces: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) pieces.push(bytes.subarray(at, at + size));
  return Readable.from(pieces);
};

/** What the reader yields before it stops, and why it stopped. */
async function read(source: Readable, onBytes?: (bytes: number) => void) {
  const features: unknown[] = [];
  try {
    for await (const feature of featuresOf(source, onBytes)) features.push(feature);
    return { features, error: undefined };
  } catch (error) {
    return { features, error: error as Error & { statusCode?: number; errors?: Record<string, string> } };
  }
}

const notGeoJson = {
  statusCode: 422,
  message: DETECTION_MESSAGES.notGeoJson,
  errors: { file: DETECTION_MESSAGES.notGeoJson },
};

describe('the features of an uploaded file', () => {
  it('yields each feature parsed, telling the bytes read', async () => {
    const text = '{"type":"FeatureCollection","features":[{"type":"Feature","id":1},{"type":"Feature","id":2}]}';
    const told: number[] = [];
    const { features, error } = await read(streamOf(text), (bytes) => told.push(bytes));
    expect(error).toBeUndefined();
    expect(features).toEqual([
      { type: 'Feature', id: 1 },
      { type: 'Feature', id: 2 },
    ]);
    expect(told.at(-1)).toBe(Buffer.byteLength(text));
    expect(told).toEqual([...told].sort((a, b) => a - b));
  });

  it.each([
    ['a type other than FeatureCollection', '{"type":"Topology","features":[{"id":1}]}'],
    ['a type given after the features', '{"features":[{"id":1}],"type":"Feature"}'],
    ['no type', '{"features":[{"id":1}]}'],
    ['a feature that is not JSON', '{"type":"FeatureCollection","features":[{"id":tru}]}'],
    ['another member that is not JSON', '{"type":"FeatureCollection","name":nul,"features":[]}'],
    ['garbage after the collection', '{"type":"FeatureCollection","features":[]}]'],
    ['a file cut short', '{"type":"FeatureCollection","features":[{"id":1},{"id"'],
  ])('refuses a file with %s as not GeoJSON', async (_name, text) => {
    const { error } = await read(streamOf(text));
    expect(error).toMatchObject(notGeoJson);
  });

  it('yields the features before a fault, so that a bad one there is the one named', async () => {
    const { features, error } = await read(
      streamOf('{"type":"FeatureCollection","features":[{"id":1},{"id":2}} x', 1000),
    );
    expect(features).toEqual([{ id: 1 }, { id: 2 }]);
    expect(error).toMatchObject(notGeoJson);
  });

  it('throws a failed read as it is, for the job to try again', async () => {
    const failing = Readable.from(
      (async function* pieces() {
        yield Buffer.from('{"type":"FeatureCollection","features":[{"id":1},');
        throw Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' });
      })(),
    );
    const { features, error } = await read(failing);
    expect(features).toEqual([{ id: 1 }]);
    expect(error).toMatchObject({ code: 'EIO' });
    expect(error?.statusCode).toBeUndefined();
  });
});

describe('the detections of an uploaded file', () => {
  it('are what parseDetectionFeature makes of each feature, read on a worker thread', async () => {
    const size = { width: 1000, height: 1000 };
    const features = [
      {
        type: 'Feature',
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [1, 1],
              [9.04, 1],
              [9, 9],
              [1, 1],
            ],
          ],
        },
        properties: { classification: { name: 'Tumor', color: [255, 0, 0] }, measurements: { area: 32 } },
      },
      { type: 'Feature', geometry: { type: 'Point', coordinates: [1, 1] } },
    ];
    const detections: unknown[] = [];
    const text = JSON.stringify({ type: 'FeatureCollection', features });
    for await (const detection of detectionsOf(streamOf(text, 16), size)) detections.push(detection);
    expect(detections).toEqual(features.map((feature) => parseDetectionFeature(feature, size)));
    expect(detections.at(-1)).toBe(DETECTION_MESSAGES.badGeometry);
  });

  it('refuse a feature that is not JSON as not GeoJSON, as featuresOf does', async () => {
    const detections: unknown[] = [];
    const error = await (async () => {
      for await (const detection of detectionsOf(
        streamOf('{"type":"FeatureCollection","features":[{"type":"Feature"},{"id":tru}]}'),
        { width: 10, height: 10 },
      ))
        detections.push(detection);
    })().catch((thrown: unknown) => thrown);
    expect(detections).toEqual([DETECTION_MESSAGES.badGeometry]);
    expect(error).toMatchObject(notGeoJson);
  });
});
