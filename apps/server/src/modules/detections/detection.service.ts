import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  beyondImageReach,
  DETECTION_MESSAGES,
  DRAWING_MESSAGES,
  MESSAGES,
  regionBeyondImageReach,
  type DetectionCount,
  type DetectionImport,
  type DetectionSummary,
  type DetectionTileQuery,
  type DetectionViewport,
  type DetectionViewportQuery,
  type DrawingGeometry,
} from '@pathology/contract';
import type { Caller } from '../../auth/caller.ts';
import type { CapabilitiesService, VisibleCase } from '../../auth/capabilities/index.ts';
import { HttpError } from '../../http/http-error.ts';
import { isUuid } from '../../http/ids.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import type { TileCache } from '../iiif/tile-cache.ts';
import type { DrawingRepository } from '../drawings/drawing.repository.ts';
import { cellSizeFor, MAX_VIEW_OBJECTS, OBJECT_SCALE, VIEWPORT_CELL_PIXELS } from './detection-grid.ts';
import type { ImportLimits } from './detection-import.ts';
import { importState, type createDetectionImportRepository } from './detection-imports.ts';
import { detectionImportKey, receiveDetectionFile } from './detection-upload.ts';
import { objectAtPoint } from './detection-point.ts';
import { objectOf, objectsJson } from './detection-object.ts';
import { drawingArea } from './drawing-area.ts';
import { classificationJson, exportDocument } from './detection-export.ts';
import { renderDetectionTile, warmOutlinePainters } from './detection-tiles.ts';
import type { DetectionRepository } from './detection.repository.ts';

interface Deps {
  detections: DetectionRepository;
  imports: ReturnType<typeof createDetectionImportRepository>;
  blobs: BlobStore;
  /** Queues the `detection-import` job of an upload. */
  queueImport: (importId: string) => Promise<unknown>;
  drawings: Pick<DrawingRepository, 'findLayer' | 'findJson'>;
  capabilities: Pick<CapabilitiesService, 'requireCaseVisible'>;
  limits: ImportLimits;
  /** Rendered detection tiles, keyed by everything their picture depends on. */
  tiles: TileCache;
}

interface Layer {
  imageId: string;
  id: string;
  width: number;
  height: number;
  access: VisibleCase;
}

/** 422 for a region or point of a query that lies further past the layer's edges than its larger side. */
const outsideImage = (field: string) =>
  HttpError.validation({ [field]: MESSAGES.positionOutsideImage }, MESSAGES.positionOutsideImage);

/**
 * Read-only detections on image layers, with the permissions of drawings: sight of the case to view them, create
 * drawing to import, download drawings to export; an import is deleted by its importer or anyone who may edit the
 * case. Anything on a case the caller cannot see is 404.
 */
export function createDetectionService({
  detections,
  imports,
  blobs,
  queueImport,
  drawings,
  capabilities,
  limits,
  tiles,
}: Deps) {
  async function layerOf(caller: Caller, imageId: string, layerId: string): Promise<Layer> {
    const layer = isUuid(imageId) && isUuid(layerId) ? await drawings.findLayer(imageId, layerId) : undefined;
    if (layer == null) throw HttpError.notFound();
    const access = await capabilities.requireCaseVisible(caller, layer.caseId);
    return { imageId, id: layerId, width: layer.width, height: layer.height, access };
  }

  function mayImport(layer: Layer): void {
    if (!layer.access.capabilities.canCreateDrawing) {
      throw HttpError.forbidden(layer.access.capabilities.canEdit ? DRAWING_MESSAGES.creationDenied : undefined);
    }
  }

  return {
    async summary(caller: Caller, imageId: string, layerId: string): Promise<DetectionSummary> {
      const layer = await layerOf(caller, imageId, layerId);
      const [sets, classes] = await Promise.all([detections.sets(layerId), detections.classes(layerId)]);
      if (sets.length > 0) warmOutlinePainters();
      const { canEdit, canCreateDrawing, canDownloadDrawings } = layer.access.capabilities;
      return {
        sets: sets.map(({ accountId, ...set }) => ({ ...set, deletable: canEdit || accountId === caller.accountId })),
        classes,
        total: classes.reduce((sum, item) => sum + item.count, 0),
        version: sets.map((set) => set.id.slice(0, 8)).join('.') || 'none',
        canImport: canCreateDrawing,
        canExport: canDownloadDrawings,
      };
    },

    /**
     * Stores an uploaded file and queues its import; what can be judged at once (too large, not a JSON object) is a
     * 422 here, the rest is the job's and shows in the import's state.
     */
    async import(
      caller: Caller,
      imageId: string,
      layerId: string,
      name: string,
      body: Readable,
      declaredBytes: number | undefined,
    ): Promise<DetectionImport> {
      const layer = await layerOf(caller, imageId, layerId);
      mayImport(layer);
      const id = randomUUID();
      const key = detectionImportKey(id);
      const { size } = await receiveDetectionFile(blobs, key, body, { declaredBytes, maxBytes: limits.maxBytes });
      try {
        const row = await imports.create({
          id,
          imageId,
          imageLayerId: layerId,
          accountId: caller.accountId,
          name,
          bytesTotal: size,
        });
        await queueImport(id);
        return importState(row);
      } catch (error) {
        await blobs.delete(key);
        throw error;
      }
    },

    async importState(caller: Caller, imageId: string, layerId: string, importId: string): Promise<DetectionImport> {
      await layerOf(caller, imageId, layerId);
      const row = isUuid(importId) ? await imports.find(layerId, importId) : undefined;
      if (row === undefined) throw HttpError.notFound();
      return importState(row);
    },

    /** Tries a failed import again from its stored file: its importer, or anyone who may edit the case. */
    async retryImport(caller: Caller, imageId: string, layerId: string, importId: string): Promise<DetectionImport> {
      const layer = await layerOf(caller, imageId, layerId);
      const row = isUuid(importId) ? await imports.find(layerId, importId) : undefined;
      if (row === undefined) throw HttpError.notFound();
      mayImport(layer);
      if (row.accountId !== caller.accountId && !layer.access.capabilities.canEdit) throw HttpError.forbidden();
      const retryable = importState(row).retryable && (await blobs.exists(detectionImportKey(importId)));
      if (!retryable) throw HttpError.conflict(DETECTION_MESSAGES.notRetryable);
      const waiting = await imports.requeue(importId);
      if (waiting === undefined) throw HttpError.conflict(DETECTION_MESSAGES.notRetryable);
      await queueImport(importId);
      return importState(waiting);
    },

    /** A region's `DetectionViewport` as JSON: close up its objects, further out counts per cell. */
    async viewport(
      caller: Caller,
      imageId: string,
      layerId: string,
      query: DetectionViewportQuery,
    ): Promise<string | Buffer> {
      const layer = await layerOf(caller, imageId, layerId);
      const region = { x: query.x, y: query.y, width: query.width, height: query.height };
      if (regionBeyondImageReach(region, layer)) throw outsideImage('region');
      const close = query.scale >= OBJECT_SCALE && (await detections.estimateIn(layerId, region)) <= MAX_VIEW_OBJECTS;
      if (close) return objectsJson(await detections.objectsIn(layerId, region), '{"kind":"objects","data":', '}');
      const cellSize = cellSizeFor(query.scale, VIEWPORT_CELL_PIXELS);
      const cells = await detections.cellsIn(layerId, cellSize, region);
      return JSON.stringify({ kind: 'density', cellSize, cells } satisfies DetectionViewport);
    },

    async tile(
      caller: Caller,
      imageId: string,
      layerId: string,
      at: { level: number; column: number; row: number },
      query: DetectionTileQuery,
    ): Promise<Buffer> {
      const layer = await layerOf(caller, imageId, layerId);
      // The layer's imports name its objects and their class colours; the query names the style.
      const { version, colors } = await detections.tileBasis(layerId);
      // The layer's first objects may have come since its summary was read (an import finished while it was open).
      if (version !== '') warmOutlinePainters();
      const key = `${layerId}/${version}/${at.level}/${at.column}/${at.row}?${query.hide}&${query.fill}&${query.line}`;
      return tiles.get(key, async () => {
        const tile = await renderDetectionTile(detections, { ...layer, colors }, at, query);
        if (tile === undefined) throw HttpError.notFound();
        return tile;
      });
    },

    async at(caller: Caller, imageId: string, layerId: string, x: number, y: number) {
      const layer = await layerOf(caller, imageId, layerId);
      if (beyondImageReach([x, y], layer)) throw outsideImage('point');
      const found = objectAtPoint(await detections.objectsAt(layerId, x, y), x, y);
      return { data: found === undefined ? null : objectOf(found) };
    },

    /** Detections per class whose centre lies inside a rectangle, polygon or ellipse the caller can see. */
    async countInDrawing(caller: Caller, imageId: string, layerId: string, drawingId: string): Promise<DetectionCount> {
      const layer = await layerOf(caller, imageId, layerId);
      const reader = { accountId: caller.accountId, canEditCase: layer.access.capabilities.canEdit };
      const json = isUuid(drawingId) ? await drawings.findJson(layerId, drawingId, reader) : undefined;
      if (json == null) throw HttpError.notFound(DETECTION_MESSAGES.noDrawing);
      const area = drawingArea((JSON.parse(json) as { geometry: DrawingGeometry }).geometry);
      if (area === undefined)
        throw HttpError.validation({ drawingId: DETECTION_MESSAGES.notArea }, DETECTION_MESSAGES.notArea);
      const [counts, classes] = await Promise.all([detections.countInArea(layerId, area), detections.classes(layerId)]);
      const total = [...counts.values()].reduce((sum, count) => sum + count, 0);
      return {
        drawingId,
        total,
        classes: classes.map(({ index, name, color }) => {
          const count = counts.get(index) ?? 0;
          return { index, name, color, count, share: total === 0 ? 0 : count / total };
        }),
      };
    },

    /** The layer's detections as a QuPath-importable GeoJSON FeatureCollection, streamed batch by batch. */
    async export(caller: Caller, imageId: string, layerId: string): Promise<AsyncGenerator<Buffer>> {
      const layer = await layerOf(caller, imageId, layerId);
      if (!layer.access.capabilities.canDownloadDrawings) throw HttpError.forbidden();
      const classifications = new Map(
        (await detections.classes(layerId)).map(({ index, name, color }) => [index, classificationJson(name, color)]),
      );
      return exportDocument(detections.exportBatches(layerId), classifications);
    },

    async deleteSet(caller: Caller, imageId: string, layerId: string, setId: string): Promise<void> {
      const layer = await layerOf(caller, imageId, layerId);
      const set = isUuid(setId) ? await detections.findSet(layerId, setId) : undefined;
      if (set === undefined) throw HttpError.notFound();
      if (set.accountId !== caller.accountId && !layer.access.capabilities.canEdit) throw HttpError.forbidden();
      await detections.deleteSet(setId);
    },
  };
}

export type DetectionService = ReturnType<typeof createDetectionService>;
