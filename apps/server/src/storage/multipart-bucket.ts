import type { S3 } from '@aws-sdk/client-s3';

/** Where a resumable upload writes its parts as an S3 multipart upload, to be completed at a blob's object key. */
export interface MultipartBucket {
  client: S3;
  bucket: string;
  /** The object key of a blob key (the store's prefix in front). */
  objectKey(key: string): string;
}
