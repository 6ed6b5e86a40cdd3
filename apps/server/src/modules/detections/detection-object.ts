import type { DetectionObject } from '@pathology/contract';
import type { DetectionRow } from './detection.repository.ts';
import { Utf8Chunks } from './utf8-chunks.ts';

/** A stored detection as the API answers it. */
export const objectOf = (row: DetectionRow) =>
  ({
    id: row.id,
    classIndex: row.classIndex,
    geometry: JSON.parse(row.geometry) as DetectionObject['geometry'],
    measurements: row.measurements === null ? null : (JSON.parse(row.measurements) as unknown),
  }) satisfies DetectionObject;

/** Room in an answer's first buffer: a close view's few thousand objects (up to ~2 MB) fit in it. */
const FIRST_BYTES = 1 << 21;

/**
 * Stored detections as the UTF-8 bytes of `head`, a JSON array of `DetectionObject` and `tail`, put together from
 * their stored JSON texts: a close view's thousands of objects are not parsed, checked and serialised again. Each
 * object is encoded as it is added: building one ~2 MB string and encoding it whole took twice as long, the query
 * included.
 */
export function objectsJson(rows: readonly DetectionRow[], head = '', tail = ''): Buffer {
  const bytes = new Utf8Chunks(FIRST_BYTES);
  bytes.add(`${head}[`);
  rows.forEach((row, index) =>
    bytes.add(
      `${index === 0 ? '' : ','}{"id":"${row.id}","classIndex":${row.classIndex},"geometry":${row.geometry},` +
        `"measurements":${row.measurements ?? 'null'}}`,
    ),
  );
  bytes.add(`]${tail}`);
  const chunks = bytes.take();
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}
