import type { ExportRow } from './detection.repository.ts';

/** QuPath's classification object: the name and the colour as [r, g, b]. */
export function classificationJson(name: string, color: string): string {
  const channels = [1, 3, 5].map((at) => Number.parseInt(color.slice(at, at + 2), 16));
  return JSON.stringify({ name, color: channels });
}

/**
 * A GeoJSON FeatureCollection that QuPath imports as detections, written batch by batch: the stored geometry and
 * measurements texts go out as they are, never parsed.
 */
export async function* exportDocument(
  batches: AsyncIterable<ExportRow[]>,
  classifications: ReadonlyMap<number, string>,
): AsyncGenerator<string> {
  yield '{"type":"FeatureCollection","features":[';
  let first = true;
  for await (const batch of batches) {
    const features = batch.map(
      (row) =>
        `{"type":"Feature","id":"${row.id}","geometry":${row.geometry},"properties":{"objectType":"detection",` +
        `"classification":${classifications.get(row.classIndex) ?? 'null'}` +
        `${row.measurements === null ? '' : `,"measurements":${row.measurements}`}}}`,
    );
    yield (first ? '' : ',') + features.join(',');
    first = false;
  }
  yield ']}';
}
