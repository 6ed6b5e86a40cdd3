import { S3 } from '@aws-sdk/client-s3';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BlobStore } from './blob-store.ts';
import { FilesystemBlobStore } from './filesystem-blob-store.ts';
import { assertBlobKey } from './keys.ts';
import { S3BlobStore } from './s3-blob-store.ts';

export type StorageLocation = { kind: 'filesystem'; root: string } | { kind: 's3'; bucket: string; prefix: string };

export interface S3ConnectionOptions {
  /** S3_ENDPOINT: an S3-compatible server such as http://minio:9000; AWS itself when unset. */
  endpoint?: string;
  /** S3_FORCE_PATH_STYLE: `endpoint/bucket/key` addressing, which MinIO and most self-hosted servers need. */
  forcePathStyle?: boolean;
  /** Otherwise AWS_REGION or AWS_DEFAULT_REGION; us-east-1 when neither is set (most S3-compatible servers ignore it). */
  region?: string;
  /** Otherwise the SDK's default chain (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, AWS_PROFILE, instance role…). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

export class StorageUrlError extends Error {
  override name = 'StorageUrlError';
}

/**
 * Reads STORAGE_URL: `s3://bucket/optional/prefix`, `file:///abs/path`, or a plain path (relative to `cwd`).
 * Separate from `createBlobStore` so configuration can reject a bad value at start-up without connecting.
 */
export function parseStorageUrl(value: string, cwd = process.cwd()): StorageLocation {
  if (value.trim() === '') throw new StorageUrlError('STORAGE_URL is empty');
  if (value.startsWith('s3://')) {
    const [bucket = '', ...rest] = value.slice('s3://'.length).split('/');
    // Bucket naming rules of S3: 3-63 lowercase letters, digits, dots and hyphens.
    if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) {
      throw new StorageUrlError(`STORAGE_URL ${value}: "${bucket}" is not a valid S3 bucket name`);
    }
    const prefix = rest.join('/').replace(/\/+$/, '');
    if (prefix !== '') {
      try {
        assertBlobKey(prefix);
      } catch (error) {
        throw new StorageUrlError(`STORAGE_URL ${value}: invalid prefix (${(error as Error).message})`);
      }
    }
    return { kind: 's3', bucket, prefix };
  }
  if (value.startsWith('file:')) {
    try {
      return { kind: 'filesystem', root: fileURLToPath(value) };
    } catch (error) {
      throw new StorageUrlError(`STORAGE_URL ${value}: ${(error as Error).message}`);
    }
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    throw new StorageUrlError(`STORAGE_URL ${value}: only s3:// and file:// (or a plain path) are supported`);
  }
  return { kind: 'filesystem', root: path.resolve(cwd, value) };
}

/** The blob store STORAGE_URL names; S3 settings come from `s3` and else from the standard AWS variables. */
export function createBlobStore(location: string | StorageLocation, s3: S3ConnectionOptions = {}): BlobStore {
  const parsed = typeof location === 'string' ? parseStorageUrl(location) : location;
  switch (parsed.kind) {
    case 'filesystem':
      return new FilesystemBlobStore(parsed.root);
    case 's3':
      return new S3BlobStore({ client: createS3Client(s3), bucket: parsed.bucket, prefix: parsed.prefix });
  }
}

/** A client with S3's named methods too (`S3`, not the bare `S3Client`), as @tus/s3-store calls them. */
export function createS3Client(options: S3ConnectionOptions = {}): S3 {
  return new S3({
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle ?? false,
    region: options.region ?? (process.env.AWS_REGION || process.env.AWS_DEFAULT_REGION || 'us-east-1'),
    credentials: options.credentials,
    // Newer SDKs add CRC checksums (and aws-chunked bodies) to every request, which many S3-compatible servers
    // reject or store verbatim; only send them where S3 requires one.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}
