import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { importFileKeys } from '../detections/import-file-keys.ts';

/** Stored bytes counted into a group's usage (the same sums as recountStorageUsage). */
export type CaseBytes = {
  original: number;
  pyramidal: number;
  attachment: number;
};

/** The bytes of some cases, per owner group. */
export async function caseBytesByOwner(tx: Tx, caseIds: readonly string[]): Promise<Map<string, CaseBytes>> {
  const { rows } = await tx.execute<CaseBytes & { organizationId: string }>(sql`
    SELECT c.owner_organization_id AS "organizationId",
      coalesce(sum(x.original), 0)::float8 AS original,
      coalesce(sum(x.pyramidal), 0)::float8 AS pyramidal,
      coalesce(sum(x.attachment), 0)::float8 AS attachment
    FROM cases c CROSS JOIN LATERAL (SELECT
      (SELECT sum(i.size) FROM images i WHERE i.case_id = c.id) AS original,
      (SELECT sum(l.pyramidal_size) FROM image_layers l JOIN images i ON i.id = l.image_id
        WHERE i.case_id = c.id) AS pyramidal,
      (SELECT sum(a.size_bytes) FROM attachments a WHERE a.case_id = c.id) AS attachment) x
    WHERE c.id = ANY(${sql.param([...caseIds])}::uuid[])
    GROUP BY c.owner_organization_id`);
  return new Map(rows.map(({ organizationId, ...bytes }) => [organizationId, bytes]));
}

/**
 * Adds (sign 1) or removes (sign -1) bytes from a group's running usage totals. The totals never
 * go below zero: after drift a recount repairs them, a negative number would only mislead.
 */
export async function adjustUsage(tx: Tx, organizationId: string, bytes: CaseBytes, sign: 1 | -1): Promise<void> {
  if (bytes.original === 0 && bytes.pyramidal === 0 && bytes.attachment === 0) return;
  await tx.execute(sql`
    UPDATE organizations SET
      used_original_bytes = greatest(used_original_bytes + ${sign * bytes.original}::bigint, 0),
      used_pyramidal_bytes = greatest(used_pyramidal_bytes + ${sign * bytes.pyramidal}::bigint, 0),
      used_attachment_bytes = greatest(used_attachment_bytes + ${sign * bytes.attachment}::bigint, 0)
    WHERE id = ${organizationId}`);
}

/** Moves the usage of the cases from their current owners to `destinationId`; call before changing the owner. */
export async function moveUsage(tx: Tx, caseIds: readonly string[], destinationId: string): Promise<void> {
  const total: CaseBytes = { original: 0, pyramidal: 0, attachment: 0 };
  for (const [organizationId, bytes] of await caseBytesByOwner(tx, caseIds)) {
    if (organizationId === destinationId) continue;
    await adjustUsage(tx, organizationId, bytes, -1);
    total.original += bytes.original;
    total.pyramidal += bytes.pyramidal;
    total.attachment += bytes.attachment;
  }
  await adjustUsage(tx, destinationId, total, 1);
}

/**
 * Blob keys of the stored files of a case: image originals, thumbnails, pyramids and associated
 * pictures, attachments, partial blobs of uploads that never completed, and files of detection imports.
 */
export async function caseBlobKeys(tx: Tx, caseId: string): Promise<string[]> {
  const { rows } = await tx.execute<{ key: string }>(sql`
    SELECT key FROM (
      SELECT i.original_key AS key FROM images i WHERE i.case_id = ${caseId}
      UNION SELECT i.thumbnail_key FROM images i WHERE i.case_id = ${caseId}
      UNION SELECT l.pyramid_key FROM image_layers l JOIN images i ON i.id = l.image_id WHERE i.case_id = ${caseId}
      UNION SELECT x.blob_key FROM image_associated x JOIN images i ON i.id = x.image_id WHERE i.case_id = ${caseId}
      UNION SELECT a.blob_key FROM attachments a WHERE a.case_id = ${caseId}
      UNION SELECT u.blob_key FROM upload_records u WHERE u.case_id = ${caseId} AND u.status <> 'complete'
    ) k WHERE key IS NOT NULL ORDER BY key`);
  return [...rows.map((row) => row.key), ...(await importFileKeys(tx, { caseId }))];
}

/**
 * The keys no row references any more. Copies of an image share their blobs (images.original_key
 * says so), so a key is released only when its last reference is gone. One scan per table, not
 * one per key: deletions are rare and most of these columns carry no index.
 */
export async function unreferencedKeys(tx: Pick<Tx, 'execute'>, keys: readonly string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  const candidates = sql.param([...keys]);
  const { rows } = await tx.execute<{ key: string }>(sql`
    SELECT k.key FROM unnest(${candidates}::text[]) AS k(key)
    EXCEPT (
      SELECT original_key FROM images WHERE original_key = ANY(${candidates}::text[])
      UNION ALL SELECT thumbnail_key FROM images WHERE thumbnail_key = ANY(${candidates}::text[])
      UNION ALL SELECT pyramid_key FROM image_layers WHERE pyramid_key = ANY(${candidates}::text[])
      UNION ALL SELECT blob_key FROM image_associated WHERE blob_key = ANY(${candidates}::text[])
      UNION ALL SELECT blob_key FROM attachments WHERE blob_key = ANY(${candidates}::text[])
      UNION ALL SELECT blob_key FROM upload_records WHERE blob_key = ANY(${candidates}::text[])
    ) ORDER BY 1`);
  return rows.map((row) => row.key);
}
