import { ImageUploadQuerySchema, ImageUploadResponseSchema } from '@pathology/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ImageIngest } from './image-ingest.ts';

/** A Content-Length header as a number, or undefined when the body is chunked. */
function declaredLength(header: string | undefined): number | undefined {
  if (header == null || !/^\d+$/.test(header)) return undefined;
  return Number(header);
}

/**
 * POST images: the file is the raw request body, streamed to storage as it arrives. In its own
 * plugin so the catch-all body parser below (which leaves the body unread) applies to this route only.
 */
export const imageUploadRoutes: FastifyPluginAsyncZod<{ ingest: ImageIngest }> = async (app, { ingest }) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));

  app.post(
    '/images',
    {
      // Slides reach many gigabytes; the stream is never buffered, so Fastify's body limit does not apply.
      bodyLimit: Number.MAX_SAFE_INTEGER,
      schema: {
        operationId: 'uploadImage',
        tags: ['images'],
        summary: 'Uploads one image file (the raw request body) into a case; needs upload image',
        description:
          'Accepted: .jpg .jpeg .png .tif .tiff .svs .ndpi, VSI zips and zips of one DICOM slide (.zip), DICOM files (.dcm) ' +
          'and .isyntax/.i2syntax. The file content ' +
          'must match its extension. 409 "Duplicate file" when the case has the filename; 415 for other types; ' +
          '422 "Invalid VSI zip file"; 507 when the storage is full and 503 with Retry-After when it cannot be written, ' +
          'storing nothing. The image is recorded as uploaded and its conversion queued.',
        querystring: ImageUploadQuerySchema,
        response: { 201: ImageUploadResponseSchema },
      },
    },
    async (request, reply) => {
      const size = declaredLength(request.headers['content-length']);
      const prepared = await ingest.prepare(request.caller, request.query, size);
      const result = await ingest.receive(prepared, request.raw, size);
      return reply.status(201).send(result);
    },
  );
};
