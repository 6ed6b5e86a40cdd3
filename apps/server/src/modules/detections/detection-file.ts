import type { Readable } from 'node:stream';
import {
  badDetectionFeatureMessage,
  DETECTION_MESSAGES,
  detectionFeatureField,
  MAX_DETECTION_FEATURE_MB,
} from '@pathology/contract';
import { HttpError } from '../../http/http-error.ts';
import { ThreadPool } from '../../thread-pool.ts';
import type { ParsedDetection } from './detection-feature.ts';
import type { FeatureOutcome, FeatureTexts } from './feature-parse.ts';
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
 * The features' JSON texts of a GeoJSON FeatureCollection as they are read from the stream, a chunk's worth at a
 * time: the file is never held in memory. `onBytes` is told the bytes read so far. A file that is not JSON, not an
 * object with a `features` array, or whose `type` is not FeatureCollection ends it with a 422, after the features
 * before the fault (so a bad feature earlier in the file is the one named); so does a feature whose text is over
 * MAX_DETECTION_FEATURE_MB, named, before more of it is held.
 */
async function* featureTexts(source: Readable, onBytes?: (bytes: number) => void): AsyncGenerator<string[]> {
  let texts: string[] = [];
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
      if (texts.length > 0) yield texts;
      texts = [];
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

/** The features of a GeoJSON FeatureCollection as they are read from the stream, one at a time (featureTexts). */
export async function* featuresOf(source: Readable, onBytes?: (bytes: number) => void): AsyncGenerator<unknown> {
  for await (const texts of featureTexts(source, onBytes)) for (const text of texts) yield parsed(text);
}

/**
 * Parsing a feature of 100,000 points took ~0.2 s: features are parsed on worker threads, a chunk's worth at a time,
 * so the import's job never holds the event loop its process shares with requests. A chunk's features that take
 * longer than this fail the attempt (the job is retried).
 */
const PARSE_BUDGET_MS = 60_000;
/** A parsing thread left idle this long after an import is stopped, giving back the heap the import grew. */
const IDLE_MS = 30_000;
let readers: ThreadPool<FeatureTexts, FeatureOutcome[]> | undefined;
const featureReaders = () =>
  (readers ??= new ThreadPool({ from: import.meta.url, name: 'feature-parse.worker' }, PARSE_BUDGET_MS, {
    idleMs: IDLE_MS,
  }));

/**
 * The detections of a GeoJSON FeatureCollection's features as they are read from the stream (featureTexts), each
 * the reason it is none where it is not one; the same 422s as featuresOf for the file itself.
 */
export async function* detectionsOf(
  source: Readable,
  size: FeatureTexts['size'],
  onBytes?: (bytes: number) => void,
): AsyncGenerator<ParsedDetection | string> {
  for await (const texts of featureTexts(source, onBytes)) {
    for (const outcome of await featureReaders().run({ texts, size })) {
      if (outcome === null) throw notGeoJson();
      yield outcome;
    }
  }
}
