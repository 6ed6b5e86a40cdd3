import { setImmediate } from 'node:timers/promises';
import type { ExportRow } from './detection.repository.ts';

/** QuPath's classification object: the name and the colour as [r, g, b]. */
export function classificationJson(name: string, color: string): string {
  const channels = [1, 3, 5].map((at) => Number.parseInt(color.slice(at, at + 2), 16));
  return JSON.stringify({ name, color: channels });
}

/** Text written to the answer at a time: one feature of 100,000 points is some 2 MB, a batch of them tens. */
const PART_CHARS = 256 * 1024;

const isHighSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;

/**
 * The text as UTF-8 parts of at most PART_CHARS characters (a surrogate pair kept whole), each encoded in a turn of
 * the event loop of its own: a socket that takes every part at once would otherwise have them all encoded in one go,
 * as the answer's stream asks for the next part as soon as one is written (8 objects of 100,000 points held the loop
 * for 0.4 s).
 */
async function* utf8Parts(text: string): AsyncGenerator<Buffer> {
  for (let at = 0; at < text.length;) {
    let end = Math.min(text.length, at + PART_CHARS);
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
    await setImmediate();
    yield Buffer.from(text.slice(at, end));
    at = end;
  }
}

/**
 * A GeoJSON FeatureCollection that QuPath imports as detections, in UTF-8 parts (utf8Parts): the stored geometry and
 * measurements texts go out as they are, never parsed. A batch of the largest objects joined into one text held the
 * event loop for a third of a second while it was built and written.
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
        yield* utf8Parts(part);
        part = '';
      }
    }
  }
  yield* utf8Parts(`${part}]}`);
}
