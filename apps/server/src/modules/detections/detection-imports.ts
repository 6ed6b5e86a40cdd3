import type { DetectionImport } from '@pathology/contract';
import { and, eq, inArray, sql } from 'drizzle-orm';
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

/** Marks an import failed, unless it finished or went away meanwhile; `field` only when its file was refused. */
export async function failDetectionImport(db: Db, importId: string, message: string, field: string | null = null) {
  await db
    .update(detectionImports)
    .set({ status: 'failed', errorMessage: message, errorField: field })
    .where(and(eq(detectionImports.id, importId), inArray(detectionImports.status, ['waiting', 'running'])));
}

/** Claims an import for a run: from the start, whatever an earlier (crashed) attempt had reached. */
export async function claimDetectionImport(db: Db, importId: string) {
  const { rows } = await db.execute<{
    imageId: string;
    layerId: string;
    accountId: string | null;
    name: string;
    width: number;
    height: number;
  }>(sql`
    UPDATE detection_imports i
    SET status = 'running', bytes_read = 0, features_read = 0, error_message = NULL, error_field = NULL,
        updated_at = now()
    FROM image_layers l
    WHERE i.id = ${importId} AND i.status IN ('waiting', 'running') AND l.id = i.image_layer_id
    RETURNING i.image_id AS "imageId", i.image_layer_id AS "layerId", i.account_id AS "accountId", i.name,
              l.width, l.height`);
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
