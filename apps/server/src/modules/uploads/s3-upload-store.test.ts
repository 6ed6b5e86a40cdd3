import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { ERRORS, Upload } from '@tus/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3Client } from '../../storage/s3-client.ts';
import { S3BlobStore } from '../../storage/s3-blob-store.ts';
import { S3_CREDENTIALS, startS3Server, type S3Server } from '#test/s3-server.ts';
import { imageBlobKeys } from '../images/image-blobs.ts';
import { S3UploadStore } from './s3-upload-store.ts';

const MiB = 1024 * 1024;

describe('S3UploadStore (resumable uploads in the bucket, on s3rver)', () => {
  let dir: string;
  let s3: S3Server;
  let blobs: S3BlobStore;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 's3-upload-store-'));
    s3 = await startS3Server(dir, ['slides']);
    const client = createS3Client({ endpoint: s3.endpoint, forcePathStyle: true, credentials: S3_CREDENTIALS });
    blobs = new S3BlobStore({ client, bucket: 'slides', prefix: 'tenant' });
  });
  afterAll(async () => {
    blobs?.close();
    await s3?.stop();
    await fs.rm(dir, { recursive: true, force: true });
  });

  const store = (expirationPeriodInMilliseconds = 60_000) =>
    new S3UploadStore(blobs.multipartBucket(), { expirationPeriodInMilliseconds });

  async function bucketKeys(): Promise<string[]> {
    const listed = await blobs.client.listObjectsV2({ Bucket: 'slides' });
    return (listed.Contents ?? []).map((object) => object.Key ?? '').sort();
  }

  async function created(uploads: S3UploadStore, size: number): Promise<{ id: string; imageId: string }> {
    const imageId = randomUUID();
    const id = uploads.idOf(imageId)!;
    await uploads.create(new Upload({ id, size, offset: 0, metadata: {} }));
    return { id, imageId };
  }

  it("maps the URL id (the image's id) to the original's object key under the store's prefix, and back", () => {
    const uploads = store();
    const imageId = randomUUID();
    expect(uploads.idOf(imageId)).toBe(`tenant/${imageBlobKeys.original(imageId)}`);
    expect(uploads.imageIdOf(uploads.idOf(imageId)!)).toBe(imageId);
    expect(uploads.idOf('../other')).toBeUndefined();
    expect(() => uploads.imageIdOf('tenant/images/x/original')).toThrow();
  });

  it('completes the upload at the blob key; removing it afterwards leaves the blob and takes the rest', async () => {
    const uploads = store();
    const bytes = Buffer.alloc(6 * MiB + 7, 3);
    const { id, imageId } = await created(uploads, bytes.length);
    expect(await uploads.write(Readable.from([bytes.subarray(0, 6 * MiB)]), id, 0)).toBe(6 * MiB);
    expect(await uploads.write(Readable.from([bytes.subarray(6 * MiB)]), id, 6 * MiB)).toBe(bytes.length);
    expect((await uploads.getUpload(id)).offset).toBe(bytes.length);
    const key = imageBlobKeys.original(imageId);
    expect(Buffer.concat(await (await blobs.get(key)).toArray()).equals(bytes)).toBe(true);

    await uploads.remove(id);
    expect(await bucketKeys()).toContain(`tenant/${key}`);
    expect((await bucketKeys()).filter((name) => name.includes('~tus/'))).toEqual([]);
    await expect(uploads.getUpload(id)).rejects.toBe(ERRORS.FILE_NOT_FOUND);
    await blobs.delete(key);
  });

  it('reports an upload whose completion failed one byte short, and completes it when that byte comes again', async () => {
    const uploads = store();
    const bytes = Buffer.alloc(5 * MiB + 3, 9);
    const { id, imageId } = await created(uploads, bytes.length);
    s3.refuseCompletion = true;
    try {
      await expect(uploads.write(Readable.from([bytes]), id, 0)).rejects.toMatchObject({
        $metadata: { httpStatusCode: 503 },
      });
    } finally {
      s3.refuseCompletion = false;
    }
    expect((await uploads.getUpload(id)).offset).toBe(bytes.length - 1);
    expect(await uploads.write(Readable.from([bytes.subarray(-1)]), id, bytes.length - 1)).toBe(bytes.length);
    expect((await uploads.getUpload(id)).offset).toBe(bytes.length);
    const key = imageBlobKeys.original(imageId);
    expect(Buffer.concat(await (await blobs.get(key)).toArray()).equals(bytes)).toBe(true);
    await uploads.remove(id);
    await blobs.delete(key);
  });

  it('tells of an expired upload left complete (its process died while storing it), then removes it', async () => {
    const told: string[] = [];
    const onExpiredComplete = async (imageId: string) => void told.push(imageId);
    const options = { expirationPeriodInMilliseconds: 1_500, onExpiredComplete };
    const uploads = new S3UploadStore(blobs.multipartBucket(), options);
    const { id, imageId } = await created(uploads, 10);
    expect(await uploads.write(Readable.from([Buffer.alloc(10, 1)]), id, 0)).toBe(10);
    await sleep(2_600);
    expect(await uploads.deleteExpired()).toBe(1);
    expect(told).toEqual([imageId]);
    expect(await bucketKeys()).toEqual([`tenant/${imageBlobKeys.original(imageId)}`]);
    await blobs.delete(imageBlobKeys.original(imageId));
  });

  it('sweeps expired uploads (parts, info, trailing part) and keeps the fresh ones', async () => {
    const old = await created(store(), 2 * MiB);
    await store().write(Readable.from([Buffer.alloc(MiB, 1)]), old.id, 0);
    await sleep(2_600);
    const fresh = await created(store(), 2 * MiB);
    // Expired: written more than 1.5 s ago (S3 keeps LastModified to the second).
    expect(await store(1_500).deleteExpired()).toBe(1);
    await expect(store().getUpload(old.id)).rejects.toBe(ERRORS.FILE_NOT_FOUND);
    expect((await store().getUpload(fresh.id)).offset).toBe(0);
    expect(await bucketKeys()).toEqual([`tenant/~tus/${fresh.imageId}.info`]);
    // The multipart uploads themselves (where s3rver keeps their parts): the expired one was aborted.
    const multipart = () => fs.readdir(path.join(dir, 'slides', '._S3rver_uploads')).catch(() => []);
    expect(await multipart()).toHaveLength(1);
    await store().remove(fresh.id);
    expect(await bucketKeys()).toEqual([]);
    expect(await multipart()).toHaveLength(0);
  });
});
