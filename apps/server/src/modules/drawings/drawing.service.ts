import {
  DRAWING_MESSAGES,
  type CreateDrawingRequestSchema,
  type DrawingShape,
  type DrawingStyle,
  type DrawingVisibility,
  type DrawingVisibilityFilter,
  type UpdateDrawingRequestSchema,
} from '@pathology/contract';
import type { z } from 'zod';
import type { Caller } from '../../auth/caller.ts';
import type { CapabilitiesService, VisibleCase } from '../../auth/capabilities/index.ts';
import { HttpError } from '../../http/http-error.ts';
import { isUuid } from '../../http/ids.ts';
import type { Prepared } from './drawing-body.ts';
import type { DrawingChanges, DrawingRepository, Reader } from './drawing.repository.ts';
import { preparedOutsideImageProblem, type PreparedGeometry } from './prepared-geometry.ts';

type CreateInput = Prepared<z.output<typeof CreateDrawingRequestSchema>>;
type UpdateInput = Prepared<z.output<typeof UpdateDrawingRequestSchema>>;

interface Deps {
  drawings: DrawingRepository;
  capabilities: Pick<CapabilitiesService, 'requireCaseVisible'>;
}

/** Sight of a layer's case, with the layer's size that drawings on it must stay near. */
type LayerAccess = VisibleCase & { layerSize: { width: number; height: number } };

const FILTERED: Record<DrawingVisibilityFilter, DrawingVisibility | undefined> = {
  ALL: undefined,
  PRIVATE: 'private',
  PUBLIC: 'public',
};

const readerOf = (caller: Caller, access: VisibleCase): Reader => ({
  accountId: caller.accountId,
  canEditCase: access.capabilities.canEdit,
});

/** A JSON document `{"data":[…]}` written batch by batch, so a layer of 10,000 drawings is never one string. */
async function* listDocument(batches: AsyncIterable<string[]>): AsyncGenerator<string> {
  yield '{"data":[';
  let first = true;
  for await (const batch of batches) {
    yield (first ? '' : ',') + batch.join(',');
    first = false;
  }
  yield ']}';
}

/**
 * Drawings on image layers (part 2 §2, §6, §7). Reading needs sight of the case and shows public
 * drawings plus the reader's own private ones; drawing needs canCreateDrawing (members, unless the
 * group denies drawing); a drawing is changed or deleted by its author, or, when public, by anyone
 * who may edit the case. Only the author changes its visibility.
 */
export function createDrawingService({ drawings, capabilities }: Deps) {
  /** The case access and size of a layer of an image; anything malformed or mismatched names nothing (404). */
  async function layerAccess(caller: Caller, imageId: string, layerId: string): Promise<LayerAccess> {
    const layer = isUuid(imageId) && isUuid(layerId) ? await drawings.findLayer(imageId, layerId) : undefined;
    if (layer == null) throw HttpError.notFound();
    const access = await capabilities.requireCaseVisible(caller, layer.caseId);
    return { ...access, layerSize: { width: layer.width, height: layer.height } };
  }

  /** 422 when the geometry does not fit the shape or lies too far outside the layer's image. */
  function requireDrawable(shape: DrawingShape, geometry: PreparedGeometry, access: LayerAccess): void {
    const problem = geometry.shapeProblems[shape] ?? preparedOutsideImageProblem(geometry, access.layerSize);
    if (problem != null) throw HttpError.validation({ geometry: problem }, problem);
  }

  async function oneJson(layerId: string, drawingId: string, reader: Reader): Promise<string> {
    const json = isUuid(drawingId) ? await drawings.findJson(layerId, drawingId, reader) : undefined;
    if (json == null) throw HttpError.notFound();
    return json;
  }

  /** The drawing when the caller may change it; 404 when they cannot see it, 403 when they may only look. */
  async function editable(caller: Caller, access: VisibleCase, layerId: string, drawingId: string) {
    const row = isUuid(drawingId) ? await drawings.findOwnership(layerId, drawingId) : undefined;
    const mine = row?.accountId === caller.accountId;
    if (row == null || (row.visibility === 'private' && !mine)) throw HttpError.notFound();
    if (!mine && !access.capabilities.canEdit) throw HttpError.forbidden();
    return { ...row, mine, shapeType: row.shapeType as DrawingShape, style: row.style as DrawingStyle };
  }

  return {
    /** The layer's drawings as a streamed JSON document; `filter` narrows by visibility. */
    async list(caller: Caller, imageId: string, layerId: string, filter: DrawingVisibilityFilter = 'ALL') {
      const access = await layerAccess(caller, imageId, layerId);
      return listDocument(drawings.layerDrawings(layerId, readerOf(caller, access), FILTERED[filter]));
    },

    async get(caller: Caller, imageId: string, layerId: string, drawingId: string): Promise<string> {
      const access = await layerAccess(caller, imageId, layerId);
      return oneJson(layerId, drawingId, readerOf(caller, access));
    },

    async create(caller: Caller, imageId: string, layerId: string, input: CreateInput): Promise<string> {
      const access = await layerAccess(caller, imageId, layerId);
      if (!access.capabilities.canCreateDrawing) {
        // A member of a group that denies drawing is told why; anyone else simply lacks the right.
        throw HttpError.forbidden(access.capabilities.canEdit ? DRAWING_MESSAGES.creationDenied : undefined);
      }
      requireDrawable(input.shapeType, input.geometry, access);
      const id = await drawings.create({ imageId, imageLayerId: layerId, accountId: caller.accountId, ...input });
      if (id == null) throw HttpError.conflict(DRAWING_MESSAGES.alreadyExists);
      return oneJson(layerId, id, readerOf(caller, access));
    },

    async update(caller: Caller, imageId: string, layerId: string, drawingId: string, input: UpdateInput) {
      const access = await layerAccess(caller, imageId, layerId);
      const row = await editable(caller, access, layerId, drawingId);
      if (input.visibility !== undefined && input.visibility !== row.visibility && !row.mine) {
        throw HttpError.forbidden();
      }
      if (input.geometry !== undefined) requireDrawable(row.shapeType, input.geometry, access);
      const { style, ...rest } = input;
      const changes: DrawingChanges = { ...rest };
      if (style !== undefined) changes.style = { ...row.style, ...style };
      await drawings.update(drawingId, changes);
      return oneJson(layerId, drawingId, readerOf(caller, access));
    },

    async delete(caller: Caller, imageId: string, layerId: string, drawingId: string): Promise<void> {
      const access = await layerAccess(caller, imageId, layerId);
      await editable(caller, access, layerId, drawingId);
      await drawings.delete(drawingId);
    },
  };
}

export type DrawingService = ReturnType<typeof createDrawingService>;
