import { Transform, type Readable } from 'node:stream';
import { DETECTION_MESSAGES, MAX_JSON_DEPTH } from '@pathology/contract';
import { HttpError } from '../../http/http-error.ts';
import { JsonNesting } from '../../http/json-body.ts';
import type { BlobStore } from '../../storage/blob-store.ts';

/** Where an uploaded file of detections waits for its import job. */
export const detectionImportKey = (importId: string) => `detection-imports/${importId}.geojson`;

const fileProblem = (message: string) => HttpError.validation({ file: message }, message);

/** Whitespace JSON allows before a value, and the byte-order mark some Windows tools write first. */
const LEADING = new Set([0x20, 0x09, 0x0a, 0x0d, 0xef, 0xbb, 0xbf]);

/**
 * Passes the body on while judging what can be judged at once: the first byte that is not whitespace must open a
 * JSON object (a FeatureCollection), the body must stay within `maxBytes` (a body without Content-Length, or
 * one longer than it said), and it must not nest deeper than a JSON body may: the import's parsing and storing of a
 * feature nested thousands deep would exhaust the stack, and so fail again on every retry.
 */
function uploadGuard(maxBytes: number) {
  let bytes = 0;
  let opened = false;
  const nesting = new JsonNesting(MAX_JSON_DEPTH);
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (bytes > maxBytes) return done(fileProblem(DETECTION_MESSAGES.tooLarge));
      if (nesting.deeperThanLimit(chunk)) return done(fileProblem(DETECTION_MESSAGES.nestedTooDeep));
      if (!opened) {
        const first = chunk.findIndex((byte) => !LEADING.has(byte));
        if (first >= 0) {
          if (chunk[first] !== 0x7b) return done(fileProblem(DETECTION_MESSAGES.notGeoJson));
          opened = true;
        }
      }
      done(null, chunk);
    },
    flush(done) {
      done(opened ? null : fileProblem(DETECTION_MESSAGES.notGeoJson));
    },
  });
}

/**
 * Streams an uploaded GeoJSON file into the blob store (constant memory, whatever its size) for the import job to
 * parse. A declared length over the limit, a body that does not open a JSON object, one that grows over the limit
 * or nests too deep is a 422 at once, and nothing is stored; the rest of a refused body is read and dropped, so the
 * client gets the answer rather than a reset connection.
 */
export async function receiveDetectionFile(
  blobs: BlobStore,
  key: string,
  body: Readable,
  limits: { declaredBytes: number | undefined; maxBytes: number },
): Promise<{ size: number }> {
  if (limits.declaredBytes !== undefined && limits.declaredBytes > limits.maxBytes) {
    body.resume();
    throw fileProblem(DETECTION_MESSAGES.tooLarge);
  }
  const guard = uploadGuard(limits.maxBytes);
  let refusal: HttpError | undefined;
  guard.on('error', (error) => {
    if (error instanceof HttpError) refusal = error;
  });
  body.on('error', (error) => guard.destroy(error));
  try {
    return await blobs.put(key, body.pipe(guard), { contentType: 'application/geo+json' });
  } catch (error) {
    body.unpipe(guard);
    body.resume();
    throw refusal ?? error;
  }
}
