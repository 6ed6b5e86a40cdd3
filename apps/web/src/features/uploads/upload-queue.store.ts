import { createCounterStore, useCounter } from '../../lib/counter-store.ts';

/**
 * Number of files waiting or uploading in this browser: the "Upload Files" menu badge and the header's upload
 * indicator. The upload screens add to it when files are queued and subtract when each one finishes.
 */
export const uploadQueue = createCounterStore();

export function useUploadQueueCount(): number {
  return useCounter(uploadQueue);
}
