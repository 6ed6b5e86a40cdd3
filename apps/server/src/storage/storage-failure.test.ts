import { MESSAGES } from '@pathology/contract';
import { describe, expect, it } from 'vitest';
import { systemError } from '#test/storage-faults.ts';
import { storageFailure } from './storage-failure.ts';

/** An AWS SDK error as S3Client throws it: a name and the answer's metadata. */
const s3Error = (name: string, httpStatusCode?: number) =>
  Object.assign(new Error(name), { name, $metadata: { httpStatusCode } });

describe('storageFailure', () => {
  it.each(['ENOSPC', 'EDQUOT'])('answers 507 "storage is full" for %s', (code) => {
    expect(storageFailure(systemError(code))).toMatchObject({ statusCode: 507, message: MESSAGES.storageFull });
  });

  it.each(['EACCES', 'EPERM', 'EROFS', 'EIO', 'ECONNREFUSED', 'ETIMEDOUT'])(
    'answers 503 "storage is unavailable" with Retry-After for %s',
    (code) => {
      expect(storageFailure(systemError(code))).toMatchObject({
        statusCode: 503,
        message: MESSAGES.storageUnavailable,
        headers: { 'Retry-After': '30' },
      });
    },
  );

  it('reads S3 answers: a full MinIO or 507 is full; 5xx, 403 and no answer at all are unavailable', () => {
    expect(storageFailure(s3Error('XMinioStorageFull', 507))?.statusCode).toBe(507);
    expect(storageFailure(s3Error('ServiceUnavailable', 503))?.statusCode).toBe(503);
    expect(storageFailure(s3Error('AccessDenied', 403))?.statusCode).toBe(503);
    expect(storageFailure(s3Error('TimeoutError'))?.statusCode).toBe(503);
    expect(storageFailure(s3Error('NoSuchKey', 404))).toBeNull();
  });

  it('finds the cause of a wrapped error, and leaves a client cut and any other failure alone', () => {
    expect(storageFailure(new Error('stream failed', { cause: systemError('ENOSPC') }))?.statusCode).toBe(507);
    expect(storageFailure(systemError('ECONNRESET'))).toBeNull();
    expect(storageFailure(new Error('bug'))).toBeNull();
  });
});
