import { BatchParseRequestSchema, BatchParseResponseSchema } from '@pathology/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { BatchUploadService } from './batch-upload.service.ts';

export const batchUploadRoutes: FastifyPluginAsyncZod<{ service: BatchUploadService }> = async (app, { service }) => {
  app.post(
    '/batch/parse',
    {
      schema: {
        operationId: 'parseBatchUpload',
        tags: ['uploads'],
        summary: 'Finds the case of each file of a bulk upload; needs case creation in the group',
        description:
          'The case number is the part of the filename before the first "--", else the name without its ' +
          'extension. fileAlreadyExists (error "File already exists") when the case already has an image of ' +
          'that name or the name came earlier in the request. At most 1000 filenames.',
        body: BatchParseRequestSchema,
        response: { 200: BatchParseResponseSchema },
      },
    },
    async (request) => ({ data: await service.parse(request.caller, request.body) }),
  );
};
