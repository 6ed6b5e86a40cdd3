import { ImageAlignmentAnswerSchema, ImageAlignmentSchema, SaveImageAlignmentRequestSchema } from '@pathology/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AlignmentService } from './alignment.service.ts';

// Plain strings: a malformed id names nothing, so it answers 404 like an invisible image.
const PairParams = z.object({ id: z.string(), otherId: z.string() });

export const alignmentRoutes: FastifyPluginAsyncZod<{ service: AlignmentService }> = async (app, { service }) => {
  app.get(
    '/images/:id/alignments/:otherId',
    {
      schema: {
        operationId: 'getImageAlignment',
        tags: ['image alignments'],
        summary:
          "The pair's point alignment, points seen from {id}; null when none is saved, 404 when an image is out of sight",
        params: PairParams,
        response: { 200: ImageAlignmentAnswerSchema },
      },
    },
    (request) => service.get(request.caller, request.params.id, request.params.otherId),
  );

  app.put(
    '/images/:id/alignments/:otherId',
    {
      schema: {
        operationId: 'saveImageAlignment',
        tags: ['image alignments'],
        summary:
          "Saves the pair's 2 or 3 matching points (apart, not on one line, near their images); needs edit rights on both images' cases",
        params: PairParams,
        body: SaveImageAlignmentRequestSchema,
        response: { 200: ImageAlignmentSchema },
      },
    },
    (request) => service.save(request.caller, request.params.id, request.params.otherId, request.body.points),
  );

  app.delete(
    '/images/:id/alignments/:otherId',
    {
      schema: {
        operationId: 'deleteImageAlignment',
        tags: ['image alignments'],
        summary: "Removes the pair's point alignment; needs edit rights on both images' cases",
        params: PairParams,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await service.delete(request.caller, request.params.id, request.params.otherId);
      return reply.status(204).send(null);
    },
  );
};
