import {
  CopyImageRequestSchema,
  CopyImageResponseSchema,
  IMAGE_MESSAGES,
  ImageDataQuerySchema,
  ImageSchema,
  ImageSearchRequestSchema,
  ImageSearchResponseSchema,
  UpdateImageRequestSchema,
} from '@pathology/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { attachmentDisposition } from '../../http/content-disposition.ts';
import type { ImageService } from './image.service.ts';

// Ids stay plain strings: a malformed id names no image, so it answers 404 like any invisible one.
const ImageParams = z.object({ id: z.string() });

export const imageRoutes: FastifyPluginAsyncZod<{ service: ImageService }> = async (app, { service }) => {
  app.post(
    '/images/search',
    {
      schema: {
        operationId: 'searchImages',
        tags: ['images'],
        summary: 'One page of the images of cases the caller may see that match every expression',
        description:
          'Each expression is {field, operator, value}, with the operators of case search. An asterisk in a value ' +
          'matches any characters; empty values are ignored.',
        body: ImageSearchRequestSchema,
        response: { 200: ImageSearchResponseSchema },
      },
    },
    (request) => service.search(request.caller, request.body),
  );

  app.get(
    '/images/:id',
    {
      schema: {
        operationId: 'getImage',
        tags: ['images'],
        summary: 'One image with its layers and tile source; 404 unless the caller may see its case',
        params: ImageParams,
        response: { 200: ImageSchema },
      },
    },
    (request) => service.get(request.caller, request.params.id),
  );

  app.patch(
    '/images/:id',
    {
      schema: {
        operationId: 'updateImage',
        tags: ['images'],
        summary: 'Sets the AI model and organ (application/merge-patch+json); needs edit',
        description: 'null clears a field; a field left out is kept.',
        params: ImageParams,
        body: UpdateImageRequestSchema,
        response: { 200: ImageSchema },
      },
    },
    (request) => service.update(request.caller, request.params.id, request.body),
  );

  app.delete(
    '/images/:id',
    {
      schema: {
        operationId: 'deleteImage',
        tags: ['images'],
        summary: 'Deletes an image and the files no copy still uses; needs edit',
        params: ImageParams,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await service.delete(request.caller, request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/images/:id/copy',
    {
      schema: {
        operationId: 'copyImage',
        tags: ['images'],
        summary: 'Copies an image into another case; needs download here and upload image there',
        description:
          'The copy shares the stored files and counts into the destination group\'s storage. 409 "Duplicate file" ' +
          'when the destination case has the filename.',
        params: ImageParams,
        body: CopyImageRequestSchema,
        response: { 201: CopyImageResponseSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await service.copy(request.caller, request.params.id, request.body)),
  );

  app.get(
    '/images/:id/cache/original',
    {
      schema: {
        operationId: 'downloadOriginalImage',
        tags: ['images'],
        summary: 'The uploaded file as a download; needs download image',
        description: 'Honours a single `Range: bytes=…` (206), so interrupted downloads can resume.',
        params: ImageParams,
      },
    },
    async (request, reply) => {
      const result = await service.original(request.caller, request.params.id, request.headers.range);
      reply.header('Accept-Ranges', 'bytes');
      if ('unsatisfiable' in result) {
        return reply
          .status(416)
          .header('Content-Range', `bytes */${result.unsatisfiable}`)
          .send({ message: 'Range Not Satisfiable' });
      }
      const { stream, size, range, filename } = result;
      reply
        .header('Content-Type', 'application/octet-stream')
        .header('Content-Disposition', attachmentDisposition(filename))
        .header('X-Content-Type-Options', 'nosniff');
      if (range == null) return reply.header('Content-Length', size).send(stream);
      return reply
        .status(206)
        .header('Content-Range', `bytes ${range.start}-${range.end}/${size}`)
        .header('Content-Length', range.end - range.start + 1)
        .send(stream);
    },
  );

  app.get(
    '/images/:id/data',
    {
      schema: {
        operationId: 'getImageData',
        tags: ['images'],
        summary: 'The thumbnail (SMALL) or the scanner label / macro picture as JPEG',
        description: `404 "${IMAGE_MESSAGES.imageNotAvailable}" while there is none. Answers 304 to a current If-None-Match.`,
        params: ImageParams,
        querystring: ImageDataQuerySchema,
      },
    },
    async (request, reply) => {
      const { etag, stream, fromOriginal } = await service.data(
        request.caller,
        request.params.id,
        request.query.type,
        request.headers['if-none-match'],
      );
      // private: the picture is only for those who may see the case, so shared caches must not keep it. One cut
      // from the original is kept briefly, as its tiles are: the conversion's own thumbnail soon replaces it.
      reply.header('Cache-Control', `private, max-age=${fromOriginal ? 30 : 3600}`).header('ETag', etag);
      if (stream == null) return reply.status(304).send();
      return reply.header('Content-Type', 'image/jpeg').send(stream);
    },
  );

  app.put(
    '/images/:id/reprocess',
    {
      schema: {
        operationId: 'reprocessImage',
        tags: ['images'],
        summary: 'Queues the image for conversion again; needs edit',
        description:
          `Allowed when available, failed or queued; otherwise 409 "${IMAGE_MESSAGES.notReprocessable}". ` +
          `A failure on the image's own data (-100) is final: 409 "${IMAGE_MESSAGES.unsupportedDataNotReprocessable}".`,
        params: ImageParams,
        response: { 202: ImageSchema },
      },
    },
    async (request, reply) => reply.status(202).send(await service.reprocess(request.caller, request.params.id)),
  );
};
