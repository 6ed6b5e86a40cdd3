import { and, eq } from 'drizzle-orm';
import type { ImageStatus } from '@pathology/contract';
import { imageAssociated, imageLayers, images, predictions } from '../../db/schema/index.ts';
import type { Tx } from '../../db/client.ts';

export interface CopyRequest {
  /** The destination case. */
  caseId: string;
  /** Who made the copy; recorded as its uploader. */
  accountId: string;
  copyPrediction: boolean;
  /** The copy's status for the source's, or null when an image in that state cannot be copied. */
  statusOf: (source: ImageStatus) => ImageStatus | null;
}

export type CopyOutcome =
  | {
      status: 'copied';
      id: string;
      filename: string;
      imageStatus: ImageStatus;
      bytes: { original: number; pyramidal: number };
    }
  | { status: 'gone' | 'duplicate' | 'not_copyable' };

/** The row without the columns a new row gets afresh (ids, owner, timestamps). */
export function withoutColumns<T extends object, K extends keyof T>(row: T, keys: readonly K[]): Omit<T, K> {
  return Object.fromEntries(Object.entries(row).filter(([key]) => !keys.includes(key as K))) as Omit<T, K>;
}

/**
 * Copies an image's rows (image, layers, associated pictures and, when asked, predictions) into
 * another case. The rows are new; the blob keys are the source's, so no file is duplicated and
 * deletion goes by reference (image-blobs.ts). Runs inside the caller's transaction.
 */
export async function copyImageRows(tx: Tx, sourceId: string, request: CopyRequest): Promise<CopyOutcome> {
  // FOR SHARE: a concurrent delete of the source waits until the copy's references are committed,
  // so it never removes blobs the copy is about to name.
  const [source] = await tx.select().from(images).where(eq(images.id, sourceId)).for('share');
  if (source == null) return { status: 'gone' };
  const status = request.statusOf(source.status);
  if (status == null) return { status: 'not_copyable' };
  const [taken] = await tx
    .select({ id: images.id })
    .from(images)
    .where(and(eq(images.caseId, request.caseId), eq(images.filename, source.filename)))
    .limit(1);
  if (taken != null) return { status: 'duplicate' };

  const fields = withoutColumns(source, ['id', 'caseId', 'createdAt', 'updatedAt']);
  const [copy] = await tx
    .insert(images)
    .values({ ...fields, caseId: request.caseId, uploadAccountId: request.accountId, status })
    .returning({ id: images.id });
  const copyId = copy!.id;

  const layers = await tx.select().from(imageLayers).where(eq(imageLayers.imageId, sourceId));
  const layerIds = new Map<string, string>();
  for (const layer of layers) {
    const [row] = await tx
      .insert(imageLayers)
      .values({ ...withoutColumns(layer, ['id', 'createdAt', 'updatedAt']), imageId: copyId })
      .returning({ id: imageLayers.id });
    layerIds.set(layer.id, row!.id);
  }

  const associated = await tx.select().from(imageAssociated).where(eq(imageAssociated.imageId, sourceId));
  if (associated.length > 0) {
    await tx
      .insert(imageAssociated)
      .values(associated.map((picture) => ({ ...withoutColumns(picture, ['id', 'createdAt']), imageId: copyId })));
  }

  if (request.copyPrediction) {
    const found = await tx.select().from(predictions).where(eq(predictions.imageId, sourceId));
    if (found.length > 0) {
      await tx.insert(predictions).values(
        found.map((prediction) => ({
          ...withoutColumns(prediction, ['id', 'updatedAt']),
          imageId: copyId,
          // The copy's own layer, so the prediction's overlay lines up with what the copy shows.
          imageLayerId: prediction.imageLayerId == null ? null : (layerIds.get(prediction.imageLayerId) ?? null),
        })),
      );
    }
  }

  return {
    status: 'copied',
    id: copyId,
    filename: source.filename,
    imageStatus: status,
    bytes: { original: source.size, pyramidal: layers.reduce((sum, layer) => sum + layer.pyramidalSize, 0) },
  };
}
