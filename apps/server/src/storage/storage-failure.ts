import { MESSAGES } from '@pathology/contract';
import { HttpError } from '../http/http-error.ts';

/** How long a client waits before trying a storage that could not be written again. */
export const STORAGE_RETRY_AFTER_SECONDS = 30;

/** No space left on the disk, or the account's disk quota is used up. */
const FULL_CODES = new Set(['ENOSPC', 'EDQUOT']);
/**
 * The disk refuses writes (permissions changed, remounted read-only, failing) or the S3 server cannot be
 * reached. A client's own cut connection (ECONNRESET, premature close) is deliberately not among them.
 */
const UNAVAILABLE_CODES = new Set([
  'EACCES',
  'EPERM',
  'EROFS',
  'EIO',
  'ECONNREFUSED',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
/** What S3-compatible servers answer when their disks are full (MinIO's own code, and HTTP 507). */
const S3_FULL_NAMES = new Set(['XMinioStorageFull', 'InsufficientStorage']);

interface S3Failure {
  name?: string;
  $metadata?: { httpStatusCode?: number };
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function classify(error: unknown): 'full' | 'unavailable' | null {
  if (error == null || typeof error !== 'object') return null;
  const code = codeOf(error);
  if (code != null && FULL_CODES.has(code)) return 'full';
  if (code != null && UNAVAILABLE_CODES.has(code)) return 'unavailable';
  const s3 = error as S3Failure;
  if (s3.$metadata != null) {
    const status = s3.$metadata.httpStatusCode;
    if (status === 507 || S3_FULL_NAMES.has(s3.name ?? '')) return 'full';
    // No status: the request never got an answer. 5xx: the server is failing. 403: its credentials no longer work.
    if (status == null || status >= 500 || status === 403) return 'unavailable';
  }
  return 'cause' in error ? classify(error.cause) : null;
}

/** A storage write that failed for want of space or a writable storage (not for the file itself). */
export class StorageFailure extends HttpError {}

/**
 * A failed write to the blob store or a local upload folder as the caller's answer: 507 when the storage is
 * full, 503 with Retry-After when it cannot be written; null for any other failure. Apply it to storage
 * operations only (a database outage shares some of these codes).
 */
export function storageFailure(error: unknown): StorageFailure | null {
  if (error instanceof StorageFailure) return error;
  switch (classify(error)) {
    case 'full':
      return new StorageFailure(507, MESSAGES.storageFull);
    case 'unavailable':
      return new StorageFailure(503, MESSAGES.storageUnavailable, undefined, {
        'Retry-After': String(STORAGE_RETRY_AFTER_SECONDS),
      });
    case null:
      return null;
  }
}
