import type { QueuePolicy } from './job-queue.ts';

/** Every queue of the application and the payload its jobs carry. */
export interface QueuePayloads {
  /** Recount the bytes an organization stores (originals, pyramids, attachments) after files change. */
  'storage-usage': { organizationId: string };
}

export const QUEUE_POLICIES: { [Q in keyof QueuePayloads]: QueuePolicy } = {
  'storage-usage': { retryLimit: 5, retryDelaySeconds: 10, expireInSeconds: 300 },
};
