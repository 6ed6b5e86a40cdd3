import { AttachmentSchema, type Attachment } from '@pathology/contract';
import { getAccessToken } from '../../api/client.ts';
import { apiUrl } from '../case-images/fetch-binary.ts';

/** Transport failures with the spec's wording (part 2 §8). */
export const ATTACHMENT_UPLOAD_ERRORS = {
  network: 'XMLHttpRequest error during image upload',
  aborted: 'Upload has been aborted',
} as const;

export class AttachmentUploadError extends Error {
  override readonly name = 'AttachmentUploadError';
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** The server's `{ message }`, else 'HTTP Status: N'. */
export function uploadFailureMessage(status: number, body: string): string {
  try {
    const parsed = JSON.parse(body) as unknown;
    if (typeof parsed === 'object' && parsed !== null && 'message' in parsed && typeof parsed.message === 'string') {
      if (parsed.message.trim() !== '') return parsed.message;
    }
  } catch {
    // Not JSON (a proxy's page).
  }
  return `HTTP Status: ${status}`;
}

export interface UploadHandle {
  done: Promise<Attachment>;
  abort: () => void;
}

/**
 * POST cases/{id}/attachments/upload?filename with the file as the raw body. XMLHttpRequest rather than fetch: it
 * reports upload progress (0 to 1). No time limit: an attachment may be up to 5 GB.
 */
export function uploadAttachment(caseId: string, file: File, onProgress: (fraction: number) => void): UploadHandle {
  const xhr = new XMLHttpRequest();
  let aborted = false;
  const done = (async () => {
    const token = await getAccessToken();
    return new Promise<Attachment>((resolve, reject) => {
      if (aborted) {
        reject(new AttachmentUploadError(ATTACHMENT_UPLOAD_ERRORS.aborted));
        return;
      }
      xhr.open('POST', apiUrl(`cases/${encodeURIComponent(caseId)}/attachments/upload`, { filename: file.name }));
      if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
      // Forced attachment mode: the bytes go as they are, whatever the type.
      xhr.setRequestHeader('Content-Type', 'application/octet-stream');
      xhr.setRequestHeader('Accept', 'application/json');
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable && event.total > 0) onProgress(Math.min(1, event.loaded / event.total));
      };
      xhr.onload = () => {
        if (xhr.status >= 200 && xhr.status < 300) {
          try {
            resolve(AttachmentSchema.parse(JSON.parse(xhr.responseText)));
          } catch {
            reject(new AttachmentUploadError(`HTTP Status: ${xhr.status}`, xhr.status));
          }
          return;
        }
        reject(new AttachmentUploadError(uploadFailureMessage(xhr.status, xhr.responseText), xhr.status));
      };
      xhr.onerror = () => reject(new AttachmentUploadError(ATTACHMENT_UPLOAD_ERRORS.network));
      xhr.onabort = () => reject(new AttachmentUploadError(ATTACHMENT_UPLOAD_ERRORS.aborted));
      xhr.send(file);
    });
  })();
  return {
    done,
    abort: () => {
      aborted = true;
      xhr.abort();
    },
  };
}
