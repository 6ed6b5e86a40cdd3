import { randomUUID } from 'node:crypto';
import type { ImageIngest } from '../images/image-ingest.ts';
import type { MultipartBucket } from '../../storage/multipart-bucket.ts';
import { isMissingObject } from '../../storage/s3-blob-store.ts';
import { TUS_UPLOAD_EXPIRATION_MS } from './expiration.ts';
import { S3UploadStore } from './s3-upload-store.ts';
import type { UploadStorage } from './upload-storage.ts';

/**
 * Uploads as S3 multipart uploads in the blob store's bucket, completed at the image's original key: the URL id
 * is the image's id, decided when the upload is created.
 */
export function bucketUploadStorage(
  bucket: MultipartBucket,
  ingest: Pick<ImageIngest, 'discardUnrecorded'>,
): UploadStorage {
  const datastore = new S3UploadStore(bucket, {
    expirationPeriodInMilliseconds: TUS_UPLOAD_EXPIRATION_MS,
    onExpiredComplete: (imageId) => ingest.discardUnrecorded(imageId),
  });
  return {
    datastore,
    naming: {
      namingFunction: () => datastore.idOf(randomUUID())!,
      getFileIdFromRequest: (_req, lastPath) => (lastPath == null ? undefined : datastore.idOf(lastPath)),
      generateUrl: (_req, { path: endpoint, id }) => `${endpoint}/${datastore.imageIdOf(id)}`,
    },
    imageIdOf: (upload) => datastore.imageIdOf(upload.id),
    receive: (ingest, prepared, upload) => ingest.receiveStored(prepared, upload.size ?? 0),
    // The parts became one object when the last byte arrived, with no last byte left to send again: the upload
    // goes, and the object with it (a storage that cannot be read may not take the delete either; it is tried).
    async keepResumable(upload) {
      await bucket.client.deleteObject({ Bucket: bucket.bucket, Key: upload.id }).catch(() => undefined);
      return false;
    },
    // Completing put the whole file at the image's key: only recording it is left.
    async recoverUnstored(upload) {
      const object = await bucket.client
        .headObject({ Bucket: bucket.bucket, Key: upload.id })
        .catch((error: unknown) => {
          if (isMissingObject(error)) return null;
          throw error;
        });
      return object != null && object.ContentLength === upload.size ? 'whole' : null;
    },
    sweep: (server) => server.cleanUpExpiredUploads(),
  };
}
