import { DetailedError, Upload, type PreviousUpload } from 'tus-js-client';
import { API_BASE_URL, getAccessToken } from '../../api/client.ts';
import { uploadedImage } from './tus-result.ts';
import { TUS_CHUNK_SIZE, TUS_RETRY_DELAYS, tusMayRetry } from './tus-settings.ts';
import { UPLOAD_MESSAGES, UploadError, uploadErrorMessage } from './upload-errors.ts';
import type { UploadTransport } from './upload-types.ts';

export const TUS_ENDPOINT = `${API_BASE_URL}/uploads/images`;
/** Retries only what may pass on its own (see tusMayRetry). */
function shouldRetry(error: DetailedError): boolean {
  return tusMayRetry(error.originalResponse?.getStatus() ?? 0, error.originalRequest?.getMethod());
}

/** The user-facing text of a tus failure. */
export function tusErrorMessage(error: unknown): string {
  if (error instanceof DetailedError) {
    const response = error.originalResponse;
    return uploadErrorMessage(response?.getStatus(), response?.getBody());
  }
  return UPLOAD_MESSAGES.network;
}

// A previous attempt of the same file (same name, size, date) to the same case resumes where it stopped.
function sameTarget(previous: PreviousUpload, metadata: Record<string, string>): boolean {
  return previous.metadata.caseId === metadata.caseId && previous.metadata.filename === metadata.filename;
}

/**
 * Sends a file with the tus protocol to `uploads/images`, refreshing the bearer token before every request. A request
 * that fails while the server restarts is tried again (TUS_RETRY_DELAYS), from the offset the server kept.
 */
export const tusTransport: UploadTransport = (item, onProgress, signal, onReconnecting) =>
  new Promise((resolve, reject) => {
    const metadata: Record<string, string> = {
      caseId: item.caseId,
      filename: item.filename,
      displayName: item.displayName || item.filename,
      metadata: JSON.stringify({ organ: item.organ, specimenType: item.specimenType, modelName: item.modelName }),
    };
    const upload = new Upload(item.file, {
      endpoint: TUS_ENDPOINT,
      chunkSize: TUS_CHUNK_SIZE,
      retryDelays: [...TUS_RETRY_DELAYS],
      metadata,
      removeFingerprintOnSuccess: true,
      onShouldRetry: (error) => {
        const retry = shouldRetry(error);
        // 423 and 409 are the server answering (another request still holds the upload; the offset moved on), not a
        // lost connection.
        const status = error.originalResponse?.getStatus();
        if (retry && status !== 423 && status !== 409) onReconnecting?.();
        return retry;
      },
      onBeforeRequest: async (request) => {
        const token = await getAccessToken();
        if (token) request.setHeader('Authorization', `Bearer ${token}`);
      },
      onProgress: (sent, total) => onProgress(total > 0 ? sent / total : 0),
      onError: (error) =>
        reject(
          new UploadError(
            tusErrorMessage(error),
            error instanceof DetailedError ? error.originalResponse?.getStatus() : undefined,
          ),
        ),
      onSuccess: ({ lastResponse }) => {
        const image = uploadedImage(lastResponse, item.filename);
        if (image != null) resolve(image);
        else reject(new UploadError(uploadErrorMessage(lastResponse.getStatus(), lastResponse.getBody())));
      },
    });
    signal.addEventListener(
      'abort',
      () => {
        // Terminate, so the server drops the partial file at once instead of after 24 hours.
        void upload.abort(true).catch(() => undefined);
        reject(new UploadError(UPLOAD_MESSAGES.aborted));
      },
      { once: true },
    );
    upload
      .findPreviousUploads()
      .then((previous) => {
        const match = previous.find((candidate) => sameTarget(candidate, metadata));
        if (match) upload.resumeFromPreviousUpload(match);
      })
      .catch(() => undefined)
      .finally(() => {
        if (!signal.aborted) upload.start();
      });
  });
