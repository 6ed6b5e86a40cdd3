import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BlobStore } from './blob-store.ts';
import type { S3ConnectionOptions } from './s3-client.ts';
import { FilesystemBlobStore } from './filesystem-blob-store.ts';
import { assertBlobKey } from './keys.ts';

export type StorageLocation = { kind: 'filesystem'; root: string } | { kind: 's3'; bucket: string; prefix: string };

export type { S3ConnectionOptions } from './s3-client.ts';

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

/**
 * The blob store STORAGE_URL names; S3 settings come from `s3` and else from the standard AWS variables. The AWS SDK
 * is loaded only for S3: it is the heaviest of the server's imports, a large part of its start and of its memory.
 */
export async function createBlobStore(
  location: string | StorageLocation,
  s3: S3ConnectionOptions = {},
): Promise<BlobStore> {
  const parsed = typeof location === 'string' ? parseStorageUrl(location) : location;
  if (parsed.kind === 'filesystem') return new FilesystemBlobStore(parsed.root);
  const [{ S3BlobStore }, { createS3Client }] = await Promise.all([
    import('./s3-blob-store.ts'),
    import('./s3-client.ts'),
  ]);
  return new S3BlobStore({ client: createS3Client(s3), bucket: parsed.bucket, prefix: parsed.prefix });
}
