import type { DetectionImport } from '@pathology/contract';
import { and, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { detectionImports } from '../../db/schema/index.ts';

type ImportRow = typeof detectionImports.$inferSelect;

/** What the API tells of an import. */
export const importState = (row: ImportRow): DetectionImport => ({
  id: row.id,
  imageLayerId: row.imageLayerId,
  name: row.name,
  status: row.status,
  bytesRead: row.bytesRead,
  bytesTotal: row.bytesTotal,
  features: row.featuresRead,
  setId: row.setId,
  error: row.errorMessage === null ? null : { message: row.errorMessage, field: row.errorField },
  retryable: row.status === 'failed' && row.errorField === null,
  createdAt: row.createdAt.toISOString(),
});

/** Rows of `detection_imports`: one per uploaded file, written by the route and by the import job. */
export function createDetectionImportRepository(db: Db) {
  return {
    async create(values: typeof detectionImports.$inferInsert): Promise<ImportRow> {
      const [row] = await db.insert(detectionImports).values(values).returning();
      return row!;
    },

    async find(layerId: string, importId: string): Promise<ImportRow | undefined> {
      const [row] = await db
        .select()
        .from(detectionImports)
        .where(and(eq(detectionImports.id, importId), eq(detectionImports.imageLayerId, layerId)));
      return row;
    },

    /** Sets a failed import waiting again, from the start; undefined when it is not (or no longer) failed. */
    async requeue(importId: string): Promise<ImportRow | undefined> {
      const [row] = await db
        .update(detectionImports)
        .set({ status: 'waiting', errorMessage: null, errorField: null, bytesRead: 0, featuresRead: 0 })
        .where(and(eq(detectionImports.id, importId), eq(detectionImports.status, 'failed')))
        .returning();
      return row;
    },
  };
}

/**
 * Marks an import failed, unless it finished or went away meanwhile; `field` only when its file was refused. One whose
 * objects were stored (its set is named) lost only its settling: it is completed instead, as its objects show.
 */
export async function failDetectionImport(db: Db, importId: string, message: string, field: string | null = null) {
  const unfinished = and(eq(detectionImports.id, importId), inArray(detectionImports.status, ['waiting', 'running']));
  await db
    .update(detectionImports)
    .set({ status: 'completed' })
    .where(and(unfinished, isNotNull(detectionImports.setId)));
  await db
    .update(detectionImports)
    .set({ status: 'failed', errorMessage: message, errorField: field })
    .where(and(unfinished, isNull(detectionImports.setId)));
}

/** Marks an import whose objects are stored and settled completed; false when it went away meanwhile. */
export async function completeDetectionImport(db: Db, importId: string): Promise<boolean> {
  const [done] = await db
    .update(detectionImports)
    .set({ status: 'completed' })
    .where(and(eq(detectionImports.id, importId), eq(detectionImports.status, 'running')))
    .returning({ id: detectionImports.id });
  return done !== undefined;
}

/**
 * Claims an import for a run: from the start, whatever an earlier (crashed) attempt had reached, unless that attempt
 * stored its objects (`setId`): then only their settling is left to do.
 */
export async function claimDetectionImport(db: Db, importId: string) {
  const { rows } = await db.execute<{
    imageId: string;
    layerId: string;
    accountId: string | null;
    name: string;
    setId: string | null;
    width: number;
    height: number;
  }>(sql`
    UPDATE detection_imports i
    SET status = 'running', error_message = NULL, error_field = NULL, updated_at = now(),
        bytes_read = CASE WHEN i.set_id IS NULL THEN 0 ELSE i.bytes_read END,
        features_read = CASE WHEN i.set_id IS NULL THEN 0 ELSE i.features_read END
    FROM image_layers l
    WHERE i.id = ${importId} AND i.status IN ('waiting', 'running') AND l.id = i.image_layer_id
    RETURNING i.image_id AS "imageId", i.image_layer_id AS "layerId", i.account_id AS "accountId", i.name,
              i.set_id AS "setId", l.width, l.height`);
  return rows[0];
}

/** Writes a running import's progress; false when it is no longer running (deleted with its layer). */
export async function reportDetectionImport(db: Db, importId: string, bytesRead: number, featuresRead: number) {
  const [still] = await db
    .update(detectionImports)
    .set({ bytesRead, featuresRead })
    .where(and(eq(detectionImports.id, importId), eq(detectionImports.status, 'running')))
    .returning({ id: detectionImports.id });
  return still !== undefined;
}

export async function detectionImportExists(db: Db, importId: string): Promise<boolean> {
  const [found] = await db
    .select({ id: detectionImports.id })
    .from(detectionImports)
    .where(eq(detectionImports.id, importId));
  return found !== undefined;
}
