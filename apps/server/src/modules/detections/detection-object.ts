import type { DetectionObject } from '@pathology/contract';
import type { DetectionRow } from './detection.repository.ts';

/** A stored detection as the API answers it. */
export const objectOf = (row: DetectionRow) =>
  ({
    id: row.id,
    classIndex: row.classIndex,
    geometry: JSON.parse(row.geometry) as DetectionObject['geometry'],
    measurements: row.measurements === null ? null : (JSON.parse(row.measurements) as unknown),
  }) satisfies DetectionObject;

/** Room in an answer's first buffer: a close view's few thousand objects (up to ~2 MB) fit without growing it. */
const FIRST_BYTES = 1 << 21;

/**
 * Stored detections as the UTF-8 bytes of `head`, a JSON array of `DetectionObject` and `tail`, put together from
 * their stored JSON texts: a close view's thousands of objects are not parsed, checked and serialised again. Each
 * object is encoded as it is added: building one ~2 MB string and encoding it whole (V8 flattens it first) took twice
 * as long, the query included.
 */
export function objectsJson(rows: readonly DetectionRow[], head = '', tail = ''): Buffer {
  let bytes = Buffer.allocUnsafe(FIRST_BYTES);
  let used = 0;
  const add = (text: string) => {
    // UTF-8 takes at most 3 bytes per UTF-16 unit: with that much room the text cannot be cut short.
    if (used + 3 * text.length > bytes.length) {
      const grown = Buffer.allocUnsafe(Math.max(2 * bytes.length, used + 3 * text.length));
      bytes.copy(grown, 0, 0, used);
      bytes = grown;
    }
    used += bytes.write(text, used);
  };
  add(`${head}[`);
  rows.forEach((row, index) =>
    add(
      `${index === 0 ? '' : ','}{"id":"${row.id}","classIndex":${row.classIndex},"geometry":${row.geometry},` +
        `"measurements":${row.measurements ?? 'null'}}`,
    ),
  );
  add(`]${tail}`);
  return bytes.subarray(0, used);
}
