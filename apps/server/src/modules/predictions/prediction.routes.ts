import {
  AiModelListSchema,
  BulkPredictionRequestSchema,
  BulkPredictionResponseSchema,
  PredictionSchema,
  RequestPredictionSchema,
} from '@pathology/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { PredictionService } from './prediction.service.ts';

const IdParams = z.object({ id: z.string() });

export const predictionRoutes: FastifyPluginAsyncZod<{ service: PredictionService }> = async (app, { service }) => {
  app.get(
    '/predictions/models',
    {
      schema: {
        operationId: 'listAiModels',
        tags: ['predictions'],
        summary: 'The AI model catalogue; with imageId, the models that fit that image’s organ',
        description: 'A model is available only when its runtime files are installed; the others are coming-soon.',
        querystring: z.object({ imageId: z.string().optional() }),
        response: { 200: AiModelListSchema },
      },
    },
    async (request) => ({ data: await service.models(request.caller, request.query.imageId) }),
  );

  app.post(
    '/predictions/request',
    {
      schema: {
        operationId: 'requestPrediction',
        tags: ['predictions'],
        summary: 'Queues an AI prediction of an image layer; needs request prediction',
        body: RequestPredictionSchema,
        response: { 201: PredictionSchema },
      },
    },
    async (request, reply) => reply.status(201).send(await service.request(request.caller, request.body)),
  );

  app.post(
    '/predictions/bulk/request',
    {
      schema: {
        operationId: 'requestPredictions',
        tags: ['predictions'],
        summary: 'Queues AI predictions of several images of one group; skipped images come with their reason',
        body: BulkPredictionRequestSchema,
        response: { 200: BulkPredictionResponseSchema },
      },
    },
    (request) => service.bulkRequest(request.caller, request.body),
  );

  app.get(
    '/predictions/:id',
    {
      schema: {
        operationId: 'getPrediction',
        tags: ['predictions'],
        summary: 'One prediction with its status, progress and result; needs view prediction',
        params: IdParams,
        response: { 200: PredictionSchema },
      },
    },
    (request) => service.get(request.caller, request.params.id),
  );

  app.delete(
    '/predictions/:id',
    {
      schema: {
        operationId: 'deletePrediction',
        tags: ['predictions'],
        summary: 'Deletes a prediction (a running one stops); needs request prediction',
        params: IdParams,
      },
    },
    async (request, reply) => {
      await service.remove(request.caller, request.params.id);
      return reply.status(204).send();
    },
  );

  app.put(
    '/predictions/:id/recover',
    {
      schema: {
        operationId: 'recoverPrediction',
        tags: ['predictions'],
        summary: 'Runs a failed (or lost) prediction again; with force, any prediction; needs recover prediction',
        params: IdParams,
        querystring: z.object({ force: z.string().optional() }),
        response: { 200: PredictionSchema },
      },
    },
    (request) =>
      service.recover(
        request.caller,
        request.params.id,
        request.query.force !== undefined && request.query.force !== 'false',
      ),
  );
};
