import { Readable } from 'node:stream';
import {
  CreateDrawingRequestSchema,
  DownloadDrawingsRequestSchema,
  DrawingListSchema,
  DrawingSchema,
  DrawingVisibilityFilterSchema,
  UpdateDrawingRequestSchema,
} from '@pathology/contract';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { attachmentDisposition } from '../../http/content-disposition.ts';
import { sendJsonText } from '../../http/json-text.ts';
import { preparedBody, registerDrawingBodies } from './drawing-bodies.ts';
import type { DrawingDownload } from './drawing-download.ts';
import type { DrawingService } from './drawing.service.ts';

// Ids stay plain strings: a malformed id names nothing, so it answers 404 like an invisible image.
const LayerParams = z.object({ id: z.string(), layerId: z.string() });
const DrawingParams = LayerParams.extend({ drawingId: z.string() });
const FilterParams = LayerParams.extend({ visibility: DrawingVisibilityFilterSchema });

/**
 * Drawings come back as JSON text PostgreSQL wrote: the payload is sent as it is, never parsed and
 * serialized again (the response schemas document the shape).
 */
export const drawingRoutes: FastifyPluginAsyncZod<{ service: DrawingService; download: DrawingDownload }> = async (
  app,
  { service, download },
) => {
  app.post(
    '/drawings/download',
    {
      schema: {
        operationId: 'downloadDrawings',
        tags: ['drawings'],
        summary: 'A zip of GeoJSON (QuPath annotations) and a measurements CSV per image; needs download drawings',
        description:
          'Every image must be on a case where the caller may download drawings. 404 "Drawings data does not ' +
          'exist." when an image is unknown or none has a drawing the caller may see.',
        body: DownloadDrawingsRequestSchema,
      },
    },
    async (request, reply) => {
      const zip = await download(request.caller, request.body.imageIds);
      const stamp = new Date().toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');
      return reply
        .type('application/zip')
        .header('Content-Disposition', attachmentDisposition(`drawings-${stamp}.zip`))
        .send(zip);
    },
  );

  app.get(
    '/images/:id/layers/:layerId/drawings',
    {
      schema: {
        operationId: 'listLayerDrawings',
        tags: ['drawings'],
        summary: "A layer's drawings: public ones and the caller's own private ones, in one streamed response",
        params: LayerParams,
        response: { 200: DrawingListSchema },
      },
    },
    async (request, reply) => {
      const document = await service.list(request.caller, request.params.id, request.params.layerId);
      return sendJsonText(reply, Readable.from(document));
    },
  );

  app.get(
    '/images/:id/layers/:layerId/visibility/:visibility/drawings',
    {
      schema: {
        operationId: 'listLayerDrawingsByVisibility',
        tags: ['drawings'],
        summary: "A layer's drawings narrowed by visibility: ALL, PRIVATE (the caller's own) or PUBLIC",
        params: FilterParams,
        response: { 200: DrawingListSchema },
      },
    },
    async (request, reply) => {
      const { id, layerId, visibility } = request.params;
      const document = await service.list(request.caller, id, layerId, visibility);
      return sendJsonText(reply, Readable.from(document));
    },
  );

  app.get(
    '/images/:id/layers/:layerId/drawings/:drawingId',
    {
      schema: {
        operationId: 'getLayerDrawing',
        tags: ['drawings'],
        summary: 'One drawing; 404 for a private drawing of someone else',
        params: DrawingParams,
        response: { 200: DrawingSchema },
      },
    },
    async (request, reply) => {
      const { id, layerId, drawingId } = request.params;
      return sendJsonText(reply, await service.get(request.caller, id, layerId, drawingId));
    },
  );

  // The routes that take geometry read long bodies off the event loop (drawing-bodies.ts), in a plugin of their own
  // so the other routes keep the app's JSON parser.
  await app.register(async (plugin) => {
    registerDrawingBodies(plugin);
    const geometryRoutes = plugin.withTypeProvider<ZodTypeProvider>();
    geometryRoutes.post(
      '/images/:id/layers/:layerId/drawings',
      {
        schema: {
          operationId: 'createLayerDrawing',
          tags: ['drawings'],
          summary: 'Draws on a layer; needs canCreateDrawing (403 with a reason where the group denies drawing)',
          description:
            'Geometry is in full-resolution image pixels: Point, LineString, Polygon (closed rings) or Ellipse ' +
            '(center and radii), as fits the shape, with at most 100,000 points. Points may lie up to the ' +
            "image's larger side past its edges, and radii may be that long (422 otherwise).",
          params: LayerParams,
          body: CreateDrawingRequestSchema,
          response: { 201: DrawingSchema },
        },
      },
      async (request, reply) => {
        const { id, layerId } = request.params;
        const json = await service.create(request.caller, id, layerId, preparedBody(request.body));
        return sendJsonText(reply, json, 201);
      },
    );

    geometryRoutes.patch(
      '/images/:id/layers/:layerId/drawings/:drawingId',
      {
        schema: {
          operationId: 'updateLayerDrawing',
          tags: ['drawings'],
          summary:
            'Changes geometry, title, style or visibility (merge-patch); the author, or an editor for a public one',
          description: 'Only the author changes the visibility. A new geometry is checked as on creation (422).',
          params: DrawingParams,
          body: UpdateDrawingRequestSchema,
          response: { 200: DrawingSchema },
        },
      },
      async (request, reply) => {
        const { id, layerId, drawingId } = request.params;
        const json = await service.update(request.caller, id, layerId, drawingId, preparedBody(request.body));
        return sendJsonText(reply, json);
      },
    );
  });

  app.delete(
    '/images/:id/layers/:layerId/drawings/:drawingId',
    {
      schema: {
        operationId: 'deleteLayerDrawing',
        tags: ['drawings'],
        summary: 'Deletes a drawing; the author, or an editor of the case for a public one',
        params: DrawingParams,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      const { id, layerId, drawingId } = request.params;
      await service.delete(request.caller, id, layerId, drawingId);
      return reply.status(204).send(null);
    },
  );
};
