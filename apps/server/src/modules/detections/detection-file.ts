import type { Readable } from 'node:stream';
import { DETECTION_MESSAGES } from '@pathology/contract';
import { HttpError } from '../../http/http-error.ts';
import { FeatureCollectionSplitter, NestedTooDeep } from './feature-collection-splitter.ts';

const fileProblem = (message: string) => HttpError.validation({ file: message }, message);
const notGeoJson = () => fileProblem(DETECTION_MESSAGES.notGeoJson);

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw notGeoJson();
  }
}

/**
 * The features of a GeoJSON FeatureCollection as they are read from the stream, one at a time: the file is never
 * held in memory. `onBytes` is told the bytes read so far. A file that is not JSON, not an object with a `features`
 * array, or whose `type` is not FeatureCollection ends it with a 422, after the features before the fault (so a
 * bad feature earlier in the file is the one named).
 */
export async function* featuresOf(source: Readable, onBytes?: (bytes: number) => void): AsyncGenerator<unknown> {
  const texts: string[] = [];
  let type: unknown;
  const splitter = new FeatureCollectionSplitter({
    feature: (text) => texts.push(text),
    member: (key, text) => {
      const value = parsed(text);
      if (key === 'type' && value !== 'FeatureCollection') throw notGeoJson();
      if (key === 'type') type = value;
    },
  });
  let bytes = 0;
  try {
    // A failed read (disk, network) is not the file's fault: it is thrown as it is, so the job retries.
    for await (const chunk of source as AsyncIterable<Buffer | string>) {
      const piece = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      bytes += piece.length;
      onBytes?.(bytes);
      let fault: unknown;
      try {
        splitter.write(piece);
      } catch (error) {
        fault = error;
      }
      for (const text of texts) yield parsed(text);
      texts.length = 0;
      if (fault instanceof NestedTooDeep) throw fileProblem(DETECTION_MESSAGES.nestedTooDeep);
      if (fault !== undefined) throw fault instanceof HttpError ? fault : notGeoJson();
    }
    try {
      splitter.end();
    } catch {
      throw notGeoJson();
    }
    if (type === undefined) throw notGeoJson();
  } finally {
    source.destroy();
  }
}
