import type { QueuePolicy } from './job-queue.ts';

/** Every queue of the application and the payload its jobs carry. */
export interface QueuePayloads {
  /** Recount the bytes an organization stores (originals, pyramids, attachments) after files change. */
  'storage-usage': { organizationId: string };
  /** Build the tiled pyramids, thumbnail and metadata of an uploaded (or reprocessed) image. */
  convert: { imageId: string };
  /** Run an AI model over an image layer (tissue detection, then the model's cells). */
  predict: { predictionId: string };
  /** Parse an uploaded GeoJSON file of detections and store them on its layer. */
  'detection-import': { importId: string };
}

export const QUEUE_POLICIES: { [Q in keyof QueuePayloads]: QueuePolicy } = {
  'storage-usage': { retryLimit: 5, retryDelaySeconds: 10, expireInSeconds: 300 },
  convert: convertPolicy(3600),
  // A whole slide at ×10 is tens of thousands of cells; a dead worker's attempt is retried once its lease lapses.
  predict: { retryLimit: 2, retryDelaySeconds: 5, expireInSeconds: 6 * 3600 },
  // A million objects take about a minute; a dead worker's attempt is retried once its lease lapses.
  'detection-import': { retryLimit: 2, retryDelaySeconds: 5, expireInSeconds: 3600 },
};

/**
 * An attempt may run for the conversion time limit plus a margin for uploading the pyramids; a
 * killed worker's attempt is retried much sooner, once its heartbeat lapses (job-leases.ts).
 */
export function convertPolicy(timeoutSeconds: number): QueuePolicy {
  return { retryLimit: 2, retryDelaySeconds: 5, expireInSeconds: timeoutSeconds + 300 };
}

/**
 * A conversion is queued with this delay before its image's row is written, and started at once when the upload's
 * view from its original is ready: if the process dies in between, the conversion still starts, this much later.
 */
export const CONVERSION_FALLBACK_SECONDS = 30;
