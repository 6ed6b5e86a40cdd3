import { IMAGE_MESSAGES } from '@pathology/contract';

/** Upload transport failures with the spec's wording (part 1 §8). */
export const UPLOAD_MESSAGES = {
  network: 'XMLHttpRequest error during image upload',
  aborted: 'Upload has been aborted',
  duplicate: IMAGE_MESSAGES.duplicateFile,
  /** The browser could not read the chosen file (moved, changed or unreadable since it was chosen). */
  loadFailed: 'Failed to load file',
} as const;

/** An error whose message is ready to show. */
export class UploadError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'UploadError';
  }
}

function messageOfBody(body: string | undefined): string | undefined {
  if (!body) return undefined;
  try {
    const parsed = JSON.parse(body) as unknown;
    if (parsed && typeof parsed === 'object' && 'message' in parsed && typeof parsed.message === 'string') {
      return parsed.message || undefined;
    }
  } catch {
    // Not JSON (a proxy page): fall back to the status.
  }
  return undefined;
}

/**
 * The text of a failed upload request: no response is a network error, 409 a duplicate, otherwise the server's
 * `{ message }` or "HTTP Status: N".
 */
export function uploadErrorMessage(status: number | null | undefined, body?: string): string {
  if (!status) return UPLOAD_MESSAGES.network;
  if (status === 409) return UPLOAD_MESSAGES.duplicate;
  return messageOfBody(body) ?? `HTTP Status: ${status}`;
}
