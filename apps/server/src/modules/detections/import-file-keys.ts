import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { detectionImportKey } from './detection-upload.ts';

/**
 * The stored files of the detection imports on these images: a waiting or failed-but-retryable import keeps its file
 * until a job reads it, and no job will once its image is gone.
 */
export async function importFileKeys(tx: Pick<Tx, 'execute'>, images: { caseId: string } | { imageId: string }) {
  const scope: SQL =
    'caseId' in images
      ? sql`d.image_id IN (SELECT id FROM images WHERE case_id = ${images.caseId})`
      : sql`d.image_id = ${images.imageId}`;
  const { rows } = await tx.execute<{ id: string }>(sql`SELECT d.id FROM detection_imports d WHERE ${scope}`);
  return rows.map((row) => detectionImportKey(row.id));
}
