import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  S3,
  S3ServiceException,
  paginateListObjectsV2,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import { Readable, pipeline } from 'node:stream';
import {
  BlobNotFoundError,
  BlobRangeError,
  type BlobRange,
  type BlobStore,
  type PutBlobOptions,
} from './blob-store.ts';
import { ByteCounter } from './blob-stream.ts';
import { assertBlobKey, assertBlobPrefix, assertBlobRange } from './keys.ts';
import type { MultipartBucket } from './multipart-bucket.ts';

export interface S3BlobStoreOptions {
  client: S3;
  bucket: string;
  /** Folder inside the bucket, without slashes at either end; '' for the bucket root. */
  prefix?: string;
}

// S3's floor for a multipart part; with 4 parts in flight an upload holds ~20 MB whatever the slide's size.
const PART_SIZE = 5 * 1024 * 1024;
const MAX_PARTS = 10_000;
const QUEUE_SIZE = 4;
// DeleteObjects takes at most 1,000 keys per request.
const DELETE_BATCH = 1000;

/** Whether S3 answered that the object does not exist. */
export function isMissingObject(error: unknown): boolean {
  return (
    error instanceof S3ServiceException &&
    (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404)
  );
}

/** Blobs as objects in an S3-compatible bucket (AWS, MinIO, Ceph…), for running several api and worker machines. */
export class S3BlobStore implements BlobStore {
  readonly client: S3;
  readonly bucket: string;
  readonly #prefix: string;

  constructor(options: S3BlobStoreOptions) {
    this.client = options.client;
    this.bucket = options.bucket;
    if (options.prefix) assertBlobKey(options.prefix);
    this.#prefix = options.prefix ? `${options.prefix}/` : '';
  }

  async put(key: string, body: Readable, options: PutBlobOptions = {}): Promise<{ size: number }> {
    assertBlobKey(key);
    const counter = new ByteCounter(options.size);
    let sourceError: Error | undefined;
    const remember = (error: Error): void => {
      sourceError ??= error;
    };
    body.once('error', remember);
    counter.once('error', remember);
    // The counter fails the stream on a wrong length before the upload can complete, so S3 never commits it.
    // Errors reach the upload through the counter; the callback only keeps pipeline from throwing them again.
    const metered = pipeline(body, counter, () => undefined);
    // Multipart parts stay invisible until CompleteMultipartUpload, so a failed body never shows under the key.
    const upload = new Upload({
      client: this.client,
      queueSize: QUEUE_SIZE,
      // A declared size picks a part size that fits S3's 10,000-part limit; unknown size covers up to ~50 GB.
      partSize: Math.max(PART_SIZE, Math.ceil((options.size ?? 0) / MAX_PARTS)),
      params: { Bucket: this.bucket, Key: this.#objectKey(key), Body: metered, ContentType: options.contentType },
    });
    try {
      await upload.done();
    } catch (error) {
      metered.destroy();
      // Upload reports a failed AbortMultipartUpload (s3rver lacks it) in place of the body's own error.
      throw sourceError ?? error;
    }
    return { size: counter.bytes };
  }

  async putFile(key: string, file: string, options: PutBlobOptions = {}): Promise<{ size: number }> {
    const stored = await this.put(key, createReadStream(file), options);
    await fs.rm(file, { force: true });
    return stored;
  }

  async get(key: string, range?: BlobRange): Promise<Readable> {
    assertBlobKey(key);
    if (range) assertBlobRange(range);
    try {
      const output = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: this.#objectKey(key),
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
      if (!(output.Body instanceof Readable)) throw new Error('S3 returned no readable body');
      return output.Body;
    } catch (error) {
      if (isMissingObject(error)) throw new BlobNotFoundError(key);
      if (error instanceof S3ServiceException && error.name === 'InvalidRange') {
        throw new BlobRangeError(`range ${range?.start}-${range?.end} is not satisfiable for ${key}`);
      }
      throw error;
    }
  }

  async stat(key: string): Promise<{ size: number } | null> {
    assertBlobKey(key);
    try {
      const output = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.#objectKey(key) }));
      return { size: output.ContentLength ?? 0 };
    } catch (error) {
      if (isMissingObject(error)) return null;
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== null;
  }

  async delete(key: string): Promise<void> {
    assertBlobKey(key);
    // S3 answers 204 for a missing key too, so this is idempotent as is.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.#objectKey(key) }));
  }

  async deleteMany(keys: readonly string[]): Promise<void> {
    keys.forEach(assertBlobKey);
    for (let index = 0; index < keys.length; index += DELETE_BATCH) {
      const batch = keys.slice(index, index + DELETE_BATCH);
      const output = await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: batch.map((key) => ({ Key: this.#objectKey(key) })), Quiet: true },
        }),
      );
      // DeleteObjects answers 200 even when some keys failed; those come back in Errors.
      const failed = output.Errors?.[0];
      if (failed)
        throw new Error(`could not delete ${failed.Key ?? '?'}: ${failed.Code ?? ''} ${failed.Message ?? ''}`);
    }
  }

  async *list(prefix: string): AsyncIterable<string> {
    assertBlobPrefix(prefix);
    const pages = paginateListObjectsV2(
      { client: this.client },
      { Bucket: this.bucket, Prefix: this.#prefix + prefix },
    );
    for await (const page of pages) {
      for (const object of page.Contents ?? []) {
        if (object.Key !== undefined) yield object.Key.slice(this.#prefix.length);
      }
    }
  }

  multipartBucket(): MultipartBucket {
    return { client: this.client, bucket: this.bucket, objectKey: (key) => this.#objectKey(key) };
  }

  /** Closes the client's sockets. */
  close(): void {
    this.client.destroy();
  }

  #objectKey(key: string): string {
    return this.#prefix + key;
  }
}
