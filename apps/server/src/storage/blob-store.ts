import type { Readable } from 'node:stream';
import type { MultipartBucket } from './multipart-bucket.ts';

/** Inclusive byte range, as in an HTTP `Range: bytes=start-end` header. */
export interface BlobRange {
  start: number;
  end: number;
}

export interface PutBlobOptions {
  contentType?: string;
  /** Declared length (e.g. Content-Length): a body that ends short or runs long is rejected and nothing is stored. */
  size?: number;
}

/**
 * Where image bytes live. Keys are validated by `assertBlobKey` (keys.ts); every method rejects a hostile
 * key with `BlobKeyError` before touching storage.
 */
export interface BlobStore {
  /**
   * Streams `body` under `key` in constant memory and replaces any previous blob atomically: readers see the
   * old bytes or the new ones, and a body that errors or is cut leaves the key as it was.
   */
  put(key: string, body: Readable, options?: PutBlobOptions): Promise<{ size: number }>;
  /**
   * Moves a finished local file (a resumable upload's bytes) in under `key`, with put's guarantees; the file is
   * gone afterwards. The filesystem store renames it (no copy) when it sits on the same filesystem, which its
   * `stagingFolder` does; S3 streams it up in parts.
   */
  putFile(key: string, file: string, options?: PutBlobOptions): Promise<{ size: number }>;
  /**
   * A local folder for files bound for `putFile` that every process using this store sees (the filesystem
   * store's own root); none for S3, whose uploads in progress live in the bucket itself.
   */
  stagingFolder?(): string;
  /**
   * The bucket in which a resumable upload in progress keeps its parts (S3), completed straight at the blob's key
   * once whole: no local copy of the file, and every API process sees it. None for the filesystem store.
   */
  multipartBucket?(): MultipartBucket;
  /**
   * Opens the blob for reading. `range.end` past the last byte is clamped (as S3 does); a start at or past the
   * end throws `BlobRangeError`. A missing key throws `BlobNotFoundError` here rather than as a stream error.
   */
  get(key: string, range?: BlobRange): Promise<Readable>;
  stat(key: string): Promise<{ size: number } | null>;
  exists(key: string): Promise<boolean>;
  /** Idempotent: deleting a missing key succeeds. */
  delete(key: string): Promise<void>;
  deleteMany(keys: readonly string[]): Promise<void>;
  /**
   * A local file holding the blob, when the store keeps blobs as files; callers that get null (S3) copy
   * the blob to a temporary file instead.
   */
  localPath?(key: string): Promise<string | null>;
  /**
   * Deletes what puts killed mid-way left under the folder `prefix` ('' for all), when the store
   * keeps such partial files (the filesystem store); `fresh` are those that may still have a live writer.
   */
  removeStaleTemporaries?(prefix: string): Promise<{ removed: string[]; fresh: string[] }>;
  /** Every key starting with `prefix` (a plain string prefix, not only whole folders), in no particular order. */
  list(prefix: string): AsyncIterable<string>;
}

/** A key or prefix that could escape the store or that the store cannot represent. */
export class BlobKeyError extends Error {
  override name = 'BlobKeyError';
}

export class BlobNotFoundError extends Error {
  override name = 'BlobNotFoundError';
  constructor(readonly key: string) {
    super(`no blob under key ${JSON.stringify(key)}`);
  }
}

/** A range that is malformed or starts past the end of the blob (HTTP 416). */
export class BlobRangeError extends Error {
  override name = 'BlobRangeError';
}

/** The body ended with a different length than declared in `PutBlobOptions.size`. */
export class BlobSizeMismatchError extends Error {
  override name = 'BlobSizeMismatchError';
}
