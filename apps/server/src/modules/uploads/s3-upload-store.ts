import { paginateListObjectsV2 } from '@aws-sdk/client-s3';
import { S3Store, type MetadataValue } from '@tus/s3-store';
import type { Readable } from 'node:stream';
import { ERRORS, Upload, type KvStore } from '@tus/server';
import type { MultipartBucket } from '../../storage/multipart-bucket.ts';
import { imageBlobKeys } from '../images/image-blobs.ts';

/** S3's floor for every part but the last; a web client's 8 MiB PATCH is one part. */
const PART_SIZE = 8 * 1024 * 1024;
/**
 * Parts being sent at once by this process, all uploads together. Each waits as a file of the OS's temporary
 * folder (@tus/s3-store buffers a part there, to know its length), so this bounds the local disk an upload uses.
 */
const PARTS_IN_FLIGHT = 8;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * No cache of the upload's info object: another API process may finish or delete the upload, or declare its
 * length, and a cached copy would keep answering for it.
 */
const NO_CACHE: KvStore<MetadataValue> = {
  get: async () => undefined,
  set: async () => undefined,
  delete: async () => undefined,
};

function isMissingUpload(error: unknown): boolean {
  const name = typeof error === 'object' && error != null && 'name' in error ? error.name : undefined;
  return name === 'NoSuchUpload' || name === 'NoSuchKey';
}

/**
 * Resumable uploads whose bytes go straight to the bucket (@tus/s3-store): each PATCH uploads its bytes as
 * parts of an S3 multipart upload, which every API process sees, and the last byte completes it at the blob key of
 * the image it will become (`images/<id>/original`), so the finished file is never copied. The image's id is the
 * upload's id in its URL. The upload's info and a trailing part smaller than S3's minimum wait under `~tus/`.
 */
export class S3UploadStore extends S3Store {
  readonly #bucket: MultipartBucket;
  readonly #onExpiredComplete: (imageId: string) => Promise<void>;

  /**
   * `onExpiredComplete` is told of an expired upload that was completed (its object exists) but never removed: its
   * process died while storing it, and the object may be no image's.
   */
  constructor(
    bucket: MultipartBucket,
    options: { expirationPeriodInMilliseconds: number; onExpiredComplete?: (imageId: string) => Promise<void> },
  ) {
    super({
      s3ClientConfig: { bucket: bucket.bucket },
      partSize: PART_SIZE,
      maxConcurrentPartUploads: PARTS_IN_FLIGHT,
      cache: NO_CACHE,
      // Expiry is swept by listing the info objects (deleteExpired), not by bucket lifecycle tags.
      useTags: false,
      expirationPeriodInMilliseconds: options.expirationPeriodInMilliseconds,
    });
    // The blob store's client (endpoint, credentials, checksum settings) rather than one of the store's own.
    this.client.destroy();
    this.client = bucket.client;
    this.#bucket = bucket;
    this.#onExpiredComplete = options.onExpiredComplete ?? (async () => undefined);
  }

  /** The store's id of the upload with URL id `imageId`: the object key it is completed at. */
  idOf(imageId: string): string | undefined {
    return UUID.test(imageId) ? this.#bucket.objectKey(imageBlobKeys.original(imageId)) : undefined;
  }

  /** The URL id (and the image's id) of the upload the store knows as `id`. */
  imageIdOf(id: string): string {
    const imageId = id.slice(this.#bucket.objectKey('images/').length).split('/')[0] ?? '';
    if (this.idOf(imageId) !== id) throw new Error(`not a resumable upload's key: ${id}`);
    return imageId;
  }

  protected override infoKey(id: string): string {
    return this.#bucket.objectKey(`~tus/${this.imageIdOf(id)}.info`);
  }

  protected override partKey(id: string, isIncomplete = false): string {
    return isIncomplete ? this.#bucket.objectKey(`~tus/${this.imageIdOf(id)}.part`) : id;
  }

  /**
   * Every part arrived but completing the upload failed (S3 unavailable): the upload reports one byte short, as
   * the folder store does, so that a client resuming it sends the last byte again and completing is retried.
   * With the offset at the full length, a tus client would take the upload for finished.
   */
  override async getUpload(id: string): Promise<Upload> {
    const upload = await super.getUpload(id);
    if (upload.size == null || upload.size === 0 || upload.offset !== upload.size) return upload;
    return (await this.#openParts(id)) == null ? upload : new Upload({ ...upload, offset: upload.size - 1 });
  }

  /** The last byte sent again after completing failed (see getUpload): the parts hold it; completing is retried. */
  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    const metadata = await this.getMetadata(id);
    const size = metadata.file.size;
    const parts = size != null && size > 0 && offset === size - 1 ? await this.#openParts(id) : null;
    if (size == null || parts == null || parts.reduce((sum, part) => sum + (part.Size ?? 0), 0) !== size) {
      return super.write(readable, id, offset);
    }
    for await (const chunk of readable) void chunk;
    await this.finishMultipartUpload(metadata, parts);
    return size;
  }

  /** The parts of an upload not yet completed; null once completed (or aborted). */
  async #openParts(id: string) {
    return this.retrieveParts(id).catch((error: unknown) => {
      if (isMissingUpload(error)) return null;
      throw error;
    });
  }

  /**
   * Abandons an upload: its parts, info and trailing part go. Never the object at its key, which exists only once
   * the upload is complete and is then the image's original (the ingest deletes it when the image is refused).
   */
  override async remove(id: string): Promise<void> {
    let uploadId: string;
    try {
      uploadId = (await this.getMetadata(id))['upload-id'];
    } catch (error) {
      // tus recognises its own error objects (status and body), which are not Error instances.
      // eslint-disable-next-line @typescript-eslint/only-throw-error
      if (isMissingUpload(error)) throw ERRORS.FILE_NOT_FOUND;
      throw error;
    }
    await this.client
      .abortMultipartUpload({ Bucket: this.#bucket.bucket, Key: id, UploadId: uploadId })
      .catch((error: unknown) => {
        if (!isMissingUpload(error)) throw error;
      });
    await this.client.deleteObjects({
      Bucket: this.#bucket.bucket,
      Delete: { Objects: [{ Key: this.infoKey(id) }, { Key: this.partKey(id, true) }], Quiet: true },
    });
  }

  /** The ids of every upload the bucket holds, with when its info was last written. */
  async *uploads(): AsyncIterable<{ id: string; writtenAt: number }> {
    const prefix = this.#bucket.objectKey('~tus/');
    const pages = paginateListObjectsV2({ client: this.client }, { Bucket: this.#bucket.bucket, Prefix: prefix });
    for await (const page of pages) {
      for (const object of page.Contents ?? []) {
        const id = this.idOf(object.Key?.slice(prefix.length).replace(/\.info$/, '') ?? '');
        if (id != null && object.Key?.endsWith('.info')) {
          yield { id, writtenAt: object.LastModified?.getTime() ?? Date.now() };
        }
      }
    }
  }

  /**
   * Removes the uploads whose info is older than the expiration (listing them under `~tus/`: @tus/s3-store's own
   * sweep lists every multipart upload of the bucket, which S3-compatible servers may not offer, and would
   * abort those of other writers too).
   */
  override async deleteExpired(): Promise<number> {
    let removed = 0;
    for await (const { id, writtenAt } of this.uploads()) {
      if (Date.now() - writtenAt <= this.getExpiration()) continue;
      if ((await this.#openParts(id)) == null) await this.#onExpiredComplete(this.imageIdOf(id));
      await this.remove(id).catch((error: unknown) => {
        if (error !== ERRORS.FILE_NOT_FOUND) throw error;
      });
      removed += 1;
    }
    return removed;
  }
}
