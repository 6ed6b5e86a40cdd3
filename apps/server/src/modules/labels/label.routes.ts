import { LabelInputSchema, LabelledListSchema, LabelledSchema } from '@pathology/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { LabelService } from './label.service.ts';

const CaseParams = z.object({ id: z.string() });
const ImageLabelParams = z.object({ id: z.string(), labelId: z.string() });

export const labelRoutes: FastifyPluginAsyncZod<{ service: LabelService }> = async (app, { service }) => {
  app.post(
    '/cases/:id/labelleds',
    {
      schema: {
        operationId: 'labelCase',
        tags: ['labels'],
        summary: 'Puts a label on the case and every image of it',
        params: CaseParams,
        body: LabelInputSchema,
        response: { 200: LabelledListSchema },
      },
    },
    async (request) => ({ data: await service.labelCase(request.caller, request.params.id, request.body) }),
  );

  app.post(
    '/cases/:id/labelleds/delete',
    {
      schema: {
        operationId: 'unlabelCase',
        tags: ['labels'],
        summary: 'Removes a label from the case and every image of it',
        params: CaseParams,
        body: LabelInputSchema,
        response: { 200: LabelledListSchema },
      },
    },
    async (request) => ({ data: await service.unlabelCase(request.caller, request.params.id, request.body) }),
  );

  app.post(
    '/images/:id/labelleds',
    {
      schema: {
        operationId: 'labelImage',
        tags: ['labels'],
        summary: 'Puts a label on one image',
        params: CaseParams,
        body: LabelInputSchema,
        response: { 201: LabelledSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await service.labelImage(request.caller, request.params.id, request.body)),
  );

  app.delete(
    '/images/:id/labelleds/:labelId',
    {
      schema: {
        operationId: 'unlabelImage',
        tags: ['labels'],
        summary: 'Removes a label from one image',
        params: ImageLabelParams,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      await service.unlabelImage(request.caller, request.params.id, request.params.labelId);
      return reply.status(204).send(null);
    },
  );
};
