import type { QueuePolicy } from './job-queue.ts';

/** Every queue of the application and the payload its jobs carry. */
export interface QueuePayloads {
  /** Recount the bytes an organization stores (originals, pyramids, attachments) after files change. */
  'storage-usage': { organizationId: string };
  /** Build the tiled pyramids, thumbnail and metadata of an uploaded (or reprocessed) image. */
  convert: { imageId: string };
}

export const QUEUE_POLICIES: { [Q in keyof QueuePayloads]: QueuePolicy } = {
  'storage-usage': { retryLimit: 5, retryDelaySeconds: 10, expireInSeconds: 300 },
  convert: convertPolicy(3600),
};

/**
 * A conversion job counts as crashed (its worker killed) once it has run past the conversion time
 * limit plus a margin for uploading the pyramids; pg-boss then retries it on another worker.
 */
export function convertPolicy(timeoutSeconds: number): QueuePolicy {
  return { retryLimit: 2, retryDelaySeconds: 5, expireInSeconds: timeoutSeconds + 300 };
}
