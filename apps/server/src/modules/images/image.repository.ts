import { and, asc, count, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import {
  OPENSLIDE_MISSING_MESSAGE,
  PROCESS_ERROR_CODES,
  type AssociatedImageKind,
  type ImageStatus,
} from '@pathology/contract';
import type { Db, Tx } from '../../db/client.ts';
import { cases, imageAssociated, imageLayers, images, labelleds } from '../../db/schema/index.ts';
import { adjustUsage } from '../cases/case-storage.ts';
import { importFileKeys } from '../detections/import-file-keys.ts';
import { copyImageRows, type CopyOutcome, type CopyRequest } from './image-copy.ts';

export type ImageRow = typeof images.$inferSelect;
export type LayerRow = typeof imageLayers.$inferSelect;
export type AssociatedRow = Pick<typeof imageAssociated.$inferSelect, 'imageId' | 'kind' | 'blobKey'>;
export type ImageChanges = Partial<Pick<ImageRow, 'modelName' | 'organ'>>;
export type ImageOrder = { field: 'displayName' | 'filename' | 'createdAt' | 'size'; direction: 'asc' | 'desc' };

const ORDER_COLUMNS = {
  displayName: images.displayName,
  filename: images.filename,
  createdAt: images.createdAt,
  size: images.size,
} as const;

/** What a deletion leaves behind: blobs that may now be unreferenced. */
export type DeletedImage = { id: string; blobKeys: string[] };

function isUniqueViolation(error: unknown): boolean {
  const cause = error instanceof Error && 'cause' in error ? error.cause : error;
  return typeof cause === 'object' && cause != null && 'code' in cause && cause.code === '23505';
}

async function ownerOf(tx: Tx, caseId: string): Promise<string | undefined> {
  const [row] = await tx
    .select({ ownerOrganizationId: cases.ownerOrganizationId })
    .from(cases)
    .where(eq(cases.id, caseId));
  return row?.ownerOrganizationId;
}

export function createImageRepository(db: Db) {
  return {
    async findCaseId(imageId: string): Promise<string | undefined> {
      const [row] = await db.select({ caseId: images.caseId }).from(images).where(eq(images.id, imageId));
      return row?.caseId;
    },

    async findImages(ids: readonly string[]): Promise<ImageRow[]> {
      if (ids.length === 0) return [];
      return db
        .select()
        .from(images)
        .where(inArray(images.id, [...ids]));
    },

    async findLayers(imageIds: readonly string[]): Promise<LayerRow[]> {
      if (imageIds.length === 0) return [];
      return db
        .select()
        .from(imageLayers)
        .where(inArray(imageLayers.imageId, [...imageIds]))
        .orderBy(imageLayers.imageId, imageLayers.layerNumber);
    },

    async findAssociated(imageIds: readonly string[]): Promise<AssociatedRow[]> {
      if (imageIds.length === 0) return [];
      return db
        .select({ imageId: imageAssociated.imageId, kind: imageAssociated.kind, blobKey: imageAssociated.blobKey })
        .from(imageAssociated)
        .where(inArray(imageAssociated.imageId, [...imageIds]))
        .orderBy(imageAssociated.imageId, imageAssociated.kind);
    },

    async findAssociatedKey(imageId: string, kind: AssociatedImageKind): Promise<string | undefined> {
      const [row] = await db
        .select({ blobKey: imageAssociated.blobKey })
        .from(imageAssociated)
        .where(and(eq(imageAssociated.imageId, imageId), eq(imageAssociated.kind, kind)));
      return row?.blobKey;
    },

    /** The images among `imageIds` the caller starred (private labels are seen by their owner only). */
    async findStarred(imageIds: readonly string[], accountId: string): Promise<Set<string>> {
      if (imageIds.length === 0) return new Set();
      const rows = await db
        .selectDistinct({ imageId: labelleds.imageId })
        .from(labelleds)
        .where(
          and(
            inArray(labelleds.imageId, [...imageIds]),
            eq(labelleds.accountId, accountId),
            eq(labelleds.visibilityType, 'private'),
          ),
        );
      return new Set(rows.flatMap((row) => (row.imageId == null ? [] : [row.imageId])));
    },

    async updateImage(id: string, changes: ImageChanges): Promise<void> {
      if (Object.keys(changes).length === 0) return;
      await db.update(images).set(changes).where(eq(images.id, id));
    },

    /**
     * Deletes the image (layers, associated pictures and predictions cascade) and takes its bytes
     * off the owner group's usage in the same transaction. Returns the blob keys the rows named;
     * the caller removes those nothing else references once this has committed.
     */
    async deleteImage(id: string): Promise<DeletedImage | null> {
      return db.transaction(async (tx) => {
        // The row lock keeps a conversion from adding layers (their FK waits on it) and a copy
        // from reading the image while its keys are collected.
        const [image] = await tx.select().from(images).where(eq(images.id, id)).for('update');
        if (image == null) return null;
        const layers = await tx
          .select({ key: imageLayers.pyramidKey, size: imageLayers.pyramidalSize })
          .from(imageLayers)
          .where(eq(imageLayers.imageId, id));
        const associated = await tx
          .select({ key: imageAssociated.blobKey })
          .from(imageAssociated)
          .where(eq(imageAssociated.imageId, id));
        const owner = await ownerOf(tx, image.caseId);
        const importFiles = await importFileKeys(tx, { imageId: id });
        await tx.delete(images).where(eq(images.id, id));
        if (owner != null) {
          const pyramidal = layers.reduce((sum, layer) => sum + layer.size, 0);
          await adjustUsage(tx, owner, { original: image.size, pyramidal, attachment: 0 }, -1);
        }
        const keys = [
          image.originalKey,
          image.thumbnailKey,
          ...layers.map((l) => l.key),
          ...associated.map((a) => a.key),
          ...importFiles,
        ];
        return { id, blobKeys: [...new Set(keys.filter((key): key is string => key != null))] };
      });
    },

    /** Copies the image rows into another case, sharing every blob, and adds the bytes to that case's group. */
    async copyImage(sourceId: string, request: CopyRequest): Promise<CopyOutcome> {
      try {
        return await db.transaction(async (tx) => {
          const outcome = await copyImageRows(tx, sourceId, request);
          if (outcome.status !== 'copied') return outcome;
          const owner = await ownerOf(tx, request.caseId);
          if (owner != null) await adjustUsage(tx, owner, { ...outcome.bytes, attachment: 0 }, 1);
          return outcome;
        });
      } catch (error) {
        // Another request took the filename between the check and the insert.
        if (isUniqueViolation(error)) return { status: 'duplicate' };
        throw error;
      }
    },

    /**
     * Puts the image back in the queue state when its status is one of `from`, clearing the last
     * error; one conditional statement, so two concurrent requests cannot both pass the check. An image whose
     * conversion failed on its own data (-100) stays as it is: no conversion of the same original can succeed (a -100
     * for OpenSlide missing is the installation's, and is requeued).
     */
    async requeue(id: string, from: readonly ImageStatus[]): Promise<boolean> {
      const rows = await db
        .update(images)
        .set({ status: 'uploaded', processErrorCode: null, processErrorMessage: null })
        .where(
          and(
            eq(images.id, id),
            inArray(images.status, [...from]),
            or(
              sql`${images.processErrorCode} IS DISTINCT FROM ${PROCESS_ERROR_CODES.unsupportedData}`,
              eq(images.processErrorMessage, OPENSLIDE_MISSING_MESSAGE),
            ),
          ),
        )
        .returning({ id: images.id });
      return rows.length > 0;
    },

    /** One page of image ids matching `where` (over images joined to their case), and how many match. */
    async searchPage(where: SQL, order: ImageOrder, page: number, limit: number) {
      const direction = order.direction === 'asc' ? asc : desc;
      const [rows, [counted]] = await Promise.all([
        db
          .select({ id: images.id })
          .from(images)
          .innerJoin(cases, eq(cases.id, images.caseId))
          .where(where)
          // The id breaks ties so pages never overlap or skip an image.
          .orderBy(direction(ORDER_COLUMNS[order.field]), direction(images.id))
          .limit(limit)
          .offset((page - 1) * limit),
        db.select({ total: count() }).from(images).innerJoin(cases, eq(cases.id, images.caseId)).where(where),
      ]);
      return { ids: rows.map((row) => row.id), total: counted?.total ?? 0 };
    },
  };
}

export type ImageRepository = ReturnType<typeof createImageRepository>;
