import {
  PROCESS_ERROR_CODES,
  type AssociatedImageKind,
  type Image,
  type ImageLayerResource,
  type TileSource,
} from '@pathology/contract';
import type { Caller } from '../../auth/caller.ts';
import { HttpError } from '../../http/http-error.ts';
import { dicomUids } from '../dicomweb/dicom-uids.ts';
import type { ImageRepository, ImageRow, LayerRow } from './image.repository.ts';

/** Where the viewer reads a layer's tiles (IIIF Image API, served under /iiif/2). */
export function layerTileSource(layerId: string): TileSource {
  return { type: 'iiif_dynamic', url: `/iiif/2/${layerId}/info.json` };
}

function toLayer(layer: LayerRow): ImageLayerResource {
  return {
    id: layer.id,
    imageId: layer.imageId,
    layerNumber: layer.layerNumber,
    pyramidalSize: layer.pyramidalSize,
    width: layer.width,
    height: layer.height,
    tileSize: layer.tileSize,
    metadata: layer.metadata ?? null,
    tileSource: layerTileSource(layer.id),
    createdAt: layer.createdAt.toISOString(),
    updatedAt: layer.updatedAt.toISOString(),
  };
}

/** The layer a viewer opens first: the one at focal position 0 (part 2 §9), else layer 0. */
export function initialLayer<L extends Pick<LayerRow, 'layerNumber' | 'metadata'>>(
  layers: readonly L[],
): L | undefined {
  return (
    layers.find((layer) => layer.metadata?.position_z === 0) ??
    layers.find((layer) => layer.layerNumber === 0) ??
    layers[0]
  );
}

export interface ImageParts {
  /** The image's layers in any order. */
  layers: readonly LayerRow[];
  associatedKinds: readonly AssociatedImageKind[];
  /** Whether the caller starred the image (their private label). */
  starred: boolean;
}

/** An image row as the API's Image entity: unknown dimensions and resolution are null, not zero. */
export function toImage(row: ImageRow, { layers, associatedKinds, starred }: ImageParts): Image {
  const ordered = [...layers].sort((a, b) => a.layerNumber - b.layerNumber);
  const initial = initialLayer(ordered);
  const failed = row.status === 'process_failed';
  // As SERVABLE_FROM_ORIGINAL (layer-access.ts): an original whose data failed to convert is not offered.
  const unreadable = failed && row.processErrorCode === PROCESS_ERROR_CODES.unsupportedData;
  const viewable = initial != null && (row.status === 'available' || (initial.fromOriginal && !unreadable));
  return {
    id: row.id,
    uploadAccountId: row.uploadAccountId,
    caseId: row.caseId,
    filename: row.filename,
    displayName: row.displayName,
    status: row.status,
    processError: failed
      ? // A failure recorded without a code is one a reprocess may fix.
        { code: row.processErrorCode ?? PROCESS_ERROR_CODES.pleaseReprocess, message: row.processErrorMessage }
      : null,
    size: row.size,
    format: row.format,
    staining: row.staining,
    scannedIn: row.scannedIn,
    scannedAt: row.scannedAt?.toISOString() ?? null,
    dimensions: row.width != null && row.height != null ? { width: row.width, height: row.height } : null,
    resolution:
      row.resolutionX != null && row.resolutionY != null && row.resolutionUnit != null
        ? { x: row.resolutionX, y: row.resolutionY, unit: row.resolutionUnit }
        : null,
    magnification: row.magnification,
    organ: row.organ,
    specimenType: row.specimenType,
    modelName: row.modelName,
    imageTags: row.imageTags,
    privateLabelled: starred,
    // The AI feature fills these, with its own rule on who may see predictions.
    predictions: [],
    prediction: null,
    // Layers of an earlier conversion stay during a reprocess, but tiles are offered only once it is done;
    // a layer served from the original is offered at once, and after a transient failure with its error.
    tileSource: viewable ? layerTileSource(initial.id) : null,
    viewable,
    conversionProgress: row.status === 'processing' || row.status === 'uploaded' ? row.conversionProgress : null,
    imageLayerResources: ordered.map(toLayer),
    associatedImages: [...associatedKinds].sort(),
    dicom: { studyInstanceUid: dicomUids.study(row.caseId), seriesInstanceUid: dicomUids.series(row.id) },
    createdAt: row.createdAt.toISOString(),
  };
}

type Reads = Pick<ImageRepository, 'findImages' | 'findLayers' | 'findAssociated' | 'findStarred'>;

/** Reads images as API entities. Callers check visibility first: this only reads. */
export function createImageViews(repository: Reads) {
  async function many(caller: Pick<Caller, 'accountId'>, ids: readonly string[]): Promise<Image[]> {
    const [rows, layers, associated, starred] = await Promise.all([
      repository.findImages(ids),
      repository.findLayers(ids),
      repository.findAssociated(ids),
      repository.findStarred(ids, caller.accountId),
    ]);
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.flatMap((id) => {
      const row = byId.get(id);
      if (row == null) return [];
      return [
        toImage(row, {
          layers: layers.filter((layer) => layer.imageId === id),
          associatedKinds: associated.filter((picture) => picture.imageId === id).map((picture) => picture.kind),
          starred: starred.has(id),
        }),
      ];
    });
  }

  return {
    many,
    /** One image; 404 when it was deleted meanwhile. */
    async one(caller: Pick<Caller, 'accountId'>, id: string): Promise<Image> {
      const [image] = await many(caller, [id]);
      if (image == null) throw HttpError.notFound();
      return image;
    },
  };
}

export type ImageViews = ReturnType<typeof createImageViews>;
