import type { ExportRow } from './detection.repository.ts';

/** QuPath's classification object: the name and the colour as [r, g, b]. */
export function classificationJson(name: string, color: string): string {
  const channels = [1, 3, 5].map((at) => Number.parseInt(color.slice(at, at + 2), 16));
  return JSON.stringify({ name, color: channels });
}

/** Text written to the answer at a time: one feature of 100,000 points is some 2 MB, a batch of them tens. */
const PART_CHARS = 1 << 20;

/**
 * A GeoJSON FeatureCollection that QuPath imports as detections, in UTF-8 parts of about PART_CHARS each: the stored
 * geometry and measurements texts go out as they are, never parsed. A batch of the largest objects joined into one
 * text held the event loop for a third of a second while it was built and written.
 */
export async function* exportDocument(
  batches: AsyncIterable<ExportRow[]>,
  classifications: ReadonlyMap<number, string>,
): AsyncGenerator<Buffer> {
  let part = '{"type":"FeatureCollection","features":[';
  let first = true;
  for await (const batch of batches) {
    for (const row of batch) {
      part +=
        `${first ? '' : ','}{"type":"Feature","id":"${row.id}","geometry":${row.geometry},"properties":{"objectType":"detection",` +
        `"classification":${classifications.get(row.classIndex) ?? 'null'}` +
        `${row.measurements === null ? '' : `,"measurements":${row.measurements}`}}}`;
      first = false;
      if (part.length >= PART_CHARS) {
        yield Buffer.from(part);
        part = '';
      }
    }
  }
  yield Buffer.from(`${part}]}`);
}
