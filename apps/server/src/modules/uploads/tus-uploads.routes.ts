import fs from 'node:fs/promises';
import path from 'node:path';
import { IMAGE_MESSAGES, type ErrorResponse } from '@pathology/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type pg from 'pg';
import { z } from 'zod';
import type { BlobStore } from '../../storage/blob-store.ts';
import type { ImageIngest } from '../images/image-ingest.ts';
import { createTusUploadServer } from './tus-upload-server.ts';
import { PgUploadLocker } from './upload-locker.ts';
import { folderUploadStorage, type UploadStorage } from './upload-storage.ts';

const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

const DESCRIPTION =
  'Resumable image upload with the tus 1.0 protocol (https://tus.io/protocols/resumable-upload), for slides too ' +
  'large to send in one request. Every request carries `Tus-Resumable: 1.0.0` and the bearer token. ' +
  '`POST uploads/images` with `Upload-Length` and `Upload-Metadata` (base64 pairs: caseId, filename, ' +
  'displayName?, metadata? — the fields of POST images) creates the upload and answers 201 with its `Location`; ' +
  'the checks of POST images run here, before any byte is sent: 404 unknown case, 403 no upload right, ' +
  '409 "Duplicate file", 415 unaccepted extension, 422 invalid fields. `HEAD` gives the bytes received ' +
  '(`Upload-Offset`), `PATCH` (`Content-Type: application/offset+octet-stream`, `Upload-Offset`) appends bytes, ' +
  '`DELETE` abandons the upload. A request meeting the upload while another request (on any server) writes it waits ' +
  'briefly, then gets 423 and should retry after a HEAD. The PATCH that completes the file stores it as an image and answers 200 with ' +
  '`{ id, filename }` (or the error of POST images, e.g. 415 or 422 "Invalid VSI zip file"). When the storage is ' +
  'full (507) or cannot be written (503 with Retry-After) the upload is kept: HEAD gives the bytes kept (one short ' +
  'of the whole file when storing it failed), and PATCHing the rest stores it once the storage is back. Uploads belong to ' +
  'the account that created them and expire 24 hours after creation.';

/**
 * In the bucket when slides go to S3, in the storage folder when they are files: either way every API process
 * sees the uploads in progress, and a finished one becomes the image's original without a copy.
 */
async function uploadStorage(blobs: BlobStore, dataDir: string, ingest: ImageIngest): Promise<UploadStorage> {
  const bucket = blobs.multipartBucket?.();
  // Loaded only for S3, as the blob store's SDK is (create-blob-store.ts).
  if (bucket != null) return (await import('./bucket-upload-storage.ts')).bucketUploadStorage(bucket, ingest);
  const directory = path.join(blobs.stagingFolder?.() ?? path.join(dataDir, 'tmp'), 'tus');
  await fs.mkdir(directory, { recursive: true });
  return folderUploadStorage(directory);
}

const UploadParamsSchema = z.object({ uploadId: z.string().describe('The last segment of the Location header') });

/**
 * The tus endpoint `uploads/images`. tus (@tus/server) answers on Node's own request and
 * response: the route authenticates as any other, then hijacks the reply and hands both over.
 */
export const tusUploadRoutes: FastifyPluginAsyncZod<{
  ingest: ImageIngest;
  blobs: BlobStore;
  pool: pg.Pool;
  dataDir: string;
}> = async (app, { ingest, blobs, pool, dataDir }) => {
  const storage = await uploadStorage(blobs, dataDir, ingest);
  const lockedBody = JSON.stringify({ message: IMAGE_MESSAGES.uploadBusy } satisfies ErrorResponse);
  const locker = new PgUploadLocker(pool, { lockedBody });
  app.addHook('onClose', () => locker.close());
  const tus = createTusUploadServer({
    ingest,
    storage,
    locker,
    path: `${app.prefix}/uploads/images`,
    log: app.log,
  });

  const sweep = async () => {
    const removed = await tus.sweepExpired();
    if (removed > 0) app.log.info({ removed }, 'expired resumable uploads deleted');
  };
  await sweep();
  const timer = setInterval(() => {
    sweep().catch((error: unknown) => app.log.warn({ err: error }, 'sweeping resumable uploads failed'));
  }, SWEEP_INTERVAL_MS).unref();
  app.addHook('onClose', async () => clearInterval(timer));

  // tus reads the PATCH body itself: the parser leaves it unread (in this plugin only).
  app.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null));

  async function handOver(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    reply.hijack();
    await tus.handle(request.caller, request.raw, reply.raw).catch((error: unknown) => {
      request.log.error({ err: error }, 'resumable upload request failed');
      reply.raw.destroy();
    });
  }

  const common = {
    // Bodies stream to disk and are never buffered; Fastify's JSON body limit does not apply.
    bodyLimit: Number.MAX_SAFE_INTEGER,
    handler: handOver,
  };
  const docs = { tags: ['images'], description: DESCRIPTION };

  app.route({
    ...common,
    method: 'POST',
    url: '/uploads/images',
    schema: { ...docs, operationId: 'createResumableImageUpload', summary: 'Creates a resumable image upload (tus)' },
  });
  app.route({
    ...common,
    method: 'HEAD',
    url: '/uploads/images/:uploadId',
    schema: {
      ...docs,
      operationId: 'getResumableImageUploadOffset',
      summary: 'Bytes received so far of a resumable upload (tus Upload-Offset)',
      params: UploadParamsSchema,
    },
  });
  app.route({
    ...common,
    method: 'PATCH',
    url: '/uploads/images/:uploadId',
    schema: {
      ...docs,
      operationId: 'appendResumableImageUpload',
      summary: 'Appends bytes to a resumable upload at Upload-Offset (tus); the last ones store the image',
      params: UploadParamsSchema,
    },
  });
  app.route({
    ...common,
    method: 'DELETE',
    url: '/uploads/images/:uploadId',
    schema: {
      ...docs,
      operationId: 'deleteResumableImageUpload',
      summary: 'Abandons a resumable upload and deletes its bytes (tus termination)',
      params: UploadParamsSchema,
    },
  });
};
