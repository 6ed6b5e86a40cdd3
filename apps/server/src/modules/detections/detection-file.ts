import type { Readable } from 'node:stream';
import {
  badDetectionFeatureMessage,
  DETECTION_MESSAGES,
  detectionFeatureField,
  MAX_DETECTION_FEATURE_MB,
} from '@pathology/contract';
import { HttpError } from '../../http/http-error.ts';
import { FeatureCollectionSplitter, NestedTooDeep, ValueTooLarge } from './feature-collection-splitter.ts';

/** The 422 naming the first bad feature (its 0-based index in `features`). */
export const invalidFeature = (index: number, reason: string) =>
  HttpError.validation({ [detectionFeatureField(index)]: reason }, badDetectionFeatureMessage(index, reason));

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
 * bad feature earlier in the file is the one named); so does a feature whose text is over MAX_DETECTION_FEATURE_MB,
 * named, before more of it is held.
 */
export async function* featuresOf(source: Readable, onBytes?: (bytes: number) => void): AsyncGenerator<unknown> {
  const texts: string[] = [];
  let type: unknown;
  const splitter = new FeatureCollectionSplitter(
    {
      feature: (text) => texts.push(text),
      member: (key, text) => {
        const value = parsed(text);
        if (key === 'type' && value !== 'FeatureCollection') throw notGeoJson();
        if (key === 'type') type = value;
      },
    },
    MAX_DETECTION_FEATURE_MB * 1024 * 1024,
  );
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
      if (fault instanceof ValueTooLarge) {
        throw fault.feature === undefined
          ? fileProblem(DETECTION_MESSAGES.tooLarge)
          : invalidFeature(fault.feature, DETECTION_MESSAGES.featureTooLarge);
      }
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
