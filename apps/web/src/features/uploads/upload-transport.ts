import { uploadAttachment } from '../attachments/upload-attachment.ts';
import { tusTransport } from './tus-transport.ts';
import { UPLOAD_MESSAGES, UploadError } from './upload-errors.ts';
import type { UploadTransport } from './upload-types.ts';

/** POST cases/{id}/attachments/upload: the forced-attachment mode of an upload item (part 2 §7). */
const attachmentTransport: UploadTransport = async (item, onProgress, signal) => {
  const handle = uploadAttachment(item.caseId, item.file, onProgress);
  signal.addEventListener('abort', handle.abort, { once: true });
  const { id, filename } = await handle.done;
  return { id, filename };
};

/**
 * Reads a byte first: a file moved or changed since it was chosen fails here with "Failed to load file" (part 1 §8)
 * rather than as a network error half-way.
 */
async function ensureReadable(file: Blob): Promise<void> {
  try {
    await file.slice(0, 1).arrayBuffer();
  } catch {
    throw new UploadError(UPLOAD_MESSAGES.loadFailed);
  }
}

/** Sends an upload item: to the case's attachments when forced to be one, else as an image (tus). */
export const uploadTransport: UploadTransport = async (item, onProgress, signal, onReconnecting) => {
  await ensureReadable(item.file);
  return (item.forceAttachment ? attachmentTransport : tusTransport)(item, onProgress, signal, onReconnecting);
};
