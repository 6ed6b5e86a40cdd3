import { Readable } from 'node:stream';
import {
  DetectionAtPointSchema,
  DetectionCountSchema,
  DetectionImportSchema,
  DetectionImportQuerySchema,
  DetectionPointQuerySchema,
  DetectionSummarySchema,
  DetectionTileQuerySchema,
  DetectionViewportQuerySchema,
  DetectionViewportSchema,
} from '@pathology/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { attachmentDisposition } from '../../http/content-disposition.ts';
import { sendJsonText } from '../../http/json-text.ts';
import type { DetectionService } from './detection.service.ts';

// Ids stay plain strings: a malformed id names nothing, so it answers 404 like an invisible image.
const LayerParams = z.object({ id: z.string(), layerId: z.string() });
const TileParams = LayerParams.extend({
  level: z.coerce.number().int().min(0).max(40),
  column: z.coerce.number().int().min(0),
  row: z.coerce.number().int().min(0),
});
const ImportParams = LayerParams.extend({ importId: z.string() });

/**
 * Detections of image analysis on a layer. The import body is the raw GeoJSON file, parsed as it streams in; this
 * plugin leaves request bodies unread for that.
 */
export const detectionRoutes: FastifyPluginAsyncZod<{ service: DetectionService }> = async (app, { service }) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));

  app.post(
    '/images/:id/layers/:layerId/detections',
    {
      // Files of a million objects are hundreds of MB; the stream is parsed as it arrives, never buffered.
      bodyLimit: Number.MAX_SAFE_INTEGER,
      schema: {
        operationId: 'importLayerDetections',
        tags: ['detections'],
        summary: 'Uploads a GeoJSON FeatureCollection of detections (QuPath, HistomicsTK) and queues its import',
        description:
          'The body is the file. Polygons and multipolygons in image pixels, `classification` {name, color}, ' +
          '`measurements`. Answers 202 with the import, whose state and progress `GET .../detections/imports/{importId}` ' +
          'tells. 422 at once for a file over DETECTIONS_MAX_MB (by Content-Length, or as it arrives) or one that does ' +
          'not open a JSON object; a bad feature found later fails the import with the same message, naming the first ' +
          'bad feature (`error.field` "features[i]", i from 0), and stores nothing. Needs canCreateDrawing.',
        params: LayerParams,
        querystring: DetectionImportQuerySchema,
        response: { 202: DetectionImportSchema },
      },
    },
    async (request, reply) => {
      const { id, layerId } = request.params;
      const length = request.headers['content-length'];
      const declared = length === undefined ? undefined : Number(length);
      const started = await service.import(request.caller, id, layerId, request.query.name, request.raw, declared);
      return reply.status(202).send(started);
    },
  );

  app.get(
    '/images/:id/layers/:layerId/detections/imports/:importId',
    {
      schema: {
        operationId: 'getLayerDetectionImport',
        tags: ['detections'],
        summary: "An import's state: waiting, running (bytes and features read so far), completed or failed (why)",
        params: ImportParams,
        response: { 200: DetectionImportSchema },
      },
    },
    async (request) => {
      const { id, layerId, importId } = request.params;
      return service.importState(request.caller, id, layerId, importId);
    },
  );

  app.post(
    '/images/:id/layers/:layerId/detections/imports/:importId/retry',
    {
      schema: {
        operationId: 'retryLayerDetectionImport',
        tags: ['detections'],
        summary: 'Queues a failed import again (not one refused for its file); its importer, or an editor of the case',
        params: ImportParams,
        response: { 202: DetectionImportSchema },
      },
    },
    async (request, reply) => {
      const { id, layerId, importId } = request.params;
      return reply.status(202).send(await service.retryImport(request.caller, id, layerId, importId));
    },
  );

  app.get(
    '/images/:id/layers/:layerId/detections',
    {
      schema: {
        operationId: 'getLayerDetections',
        tags: ['detections'],
        summary: "A layer's detections at a glance: imports, classes with counts, the caller's rights",
        params: LayerParams,
        response: { 200: DetectionSummarySchema },
      },
    },
    async (request) => service.summary(request.caller, request.params.id, request.params.layerId),
  );

  app.get(
    '/images/:id/layers/:layerId/detections/viewport',
    {
      schema: {
        operationId: 'queryLayerDetections',
        tags: ['detections'],
        summary: 'What a region holds: its objects when seen closely, counts per grid cell further out',
        description:
          'Objects when `scale` (screen pixels per image pixel) is at least 1/8 and the region holds at most 20,000; ' +
          'otherwise counts per class in cells of `cellSize` pixels (256, 1024 or 2048: the finest at least 16 screen ' +
          'pixels wide).',
        params: LayerParams,
        querystring: DetectionViewportQuerySchema,
        response: { 200: DetectionViewportSchema },
      },
    },
    async (request, reply) => {
      const { id, layerId } = request.params;
      return sendJsonText(reply, await service.viewport(request.caller, id, layerId, request.query));
    },
  );

  app.get(
    '/images/:id/layers/:layerId/detections/tiles/:level/:column/:row',
    {
      schema: {
        operationId: 'getLayerDetectionTile',
        tags: ['detections'],
        summary: 'A 512-pixel PNG tile of the detections (OpenSeadragon levels: the highest is full resolution)',
        params: TileParams,
        querystring: DetectionTileQuerySchema,
      },
    },
    async (request, reply) => {
      const { id, layerId, level, column, row } = request.params;
      const png = await service.tile(request.caller, id, layerId, { level, column, row }, request.query);
      // A tile URL carries the layer's version: once asked for, its picture never changes.
      const cache = request.query.v === undefined ? 'private, no-cache' : 'private, max-age=86400, immutable';
      return reply.type('image/png').header('Cache-Control', cache).send(png);
    },
  );

  app.get(
    '/images/:id/layers/:layerId/detections/at',
    {
      schema: {
        operationId: 'getLayerDetectionAt',
        tags: ['detections'],
        summary: 'The detection under a point of the image (smallest first), with its class and measurements',
        params: LayerParams,
        querystring: DetectionPointQuerySchema,
        response: { 200: DetectionAtPointSchema },
      },
    },
    async (request) => {
      const { id, layerId } = request.params;
      return service.at(request.caller, id, layerId, request.query.x, request.query.y);
    },
  );

  app.get(
    '/images/:id/layers/:layerId/drawings/:drawingId/detections',
    {
      schema: {
        operationId: 'countDrawingDetections',
        tags: ['detections'],
        summary: 'How many detections of each class lie inside a rectangle, polygon or ellipse (by their centre)',
        params: LayerParams.extend({ drawingId: z.string() }),
        response: { 200: DetectionCountSchema },
      },
    },
    async (request) => {
      const { id, layerId, drawingId } = request.params;
      return service.countInDrawing(request.caller, id, layerId, drawingId);
    },
  );

  app.get(
    '/images/:id/layers/:layerId/detections/export',
    {
      schema: {
        operationId: 'exportLayerDetections',
        tags: ['detections'],
        summary: "The layer's detections as GeoJSON that QuPath imports, streamed; needs download drawings",
        params: LayerParams,
      },
    },
    async (request, reply) => {
      const { id, layerId } = request.params;
      // One part at a time (exportDocument): parts buffered ahead were written to the socket all in one go.
      const document = Readable.from(await service.export(request.caller, id, layerId), { highWaterMark: 1 });
      return reply
        .type('application/geo+json; charset=utf-8')
        .header('Content-Disposition', attachmentDisposition(`detections-${layerId}.geojson`))
        .send(document);
    },
  );

  app.delete(
    '/images/:id/layers/:layerId/detections/:setId',
    {
      schema: {
        operationId: 'deleteLayerDetections',
        tags: ['detections'],
        summary: 'Deletes one import with its detections; its importer, or an editor of the case',
        params: LayerParams.extend({ setId: z.string() }),
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      const { id, layerId, setId } = request.params;
      await service.deleteSet(request.caller, id, layerId, setId);
      return reply.status(204).send(null);
    },
  );
};
