import { BYTES_PER_GB, MESSAGES } from '@pathology/contract';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { HttpError } from '../../http/http-error.ts';
import type { CaseBytes } from './case-storage.ts';

const limitExceeded = () => new HttpError(413, MESSAGES.storageLimitExceeded);

/**
 * Refuses an upload before its first byte when the group has a storage limit and `announcedBytes`
 * (Content-Length, Upload-Length) would pass it, or, with no size announced, when the group is already full.
 */
export async function assertStorageRoom(
  db: Pick<Db, 'execute'>,
  organizationId: string,
  announcedBytes: number | undefined,
): Promise<void> {
  const { rows } = await db.execute<{ full: boolean }>(sql`
    SELECT storage_limit_gb IS NOT NULL AND
      used_original_bytes + used_pyramidal_bytes + used_attachment_bytes + ${Math.max(announcedBytes ?? 0, 1)}::bigint
        > storage_limit_gb::bigint * ${BYTES_PER_GB}::bigint AS full
    FROM organizations WHERE id = ${organizationId}`);
  if (rows[0]?.full) throw limitExceeded();
}

/**
 * Adds stored bytes to the group's usage as the upload is recorded, failing (413, the transaction rolls
 * back) when they pass its limit: the final word when uploads ran side by side or announced no size.
 */
export async function addUsageWithinLimit(tx: Tx, organizationId: string, bytes: CaseBytes): Promise<void> {
  const { rows } = await tx.execute<{ over: boolean }>(sql`
    UPDATE organizations SET
      used_original_bytes = used_original_bytes + ${bytes.original}::bigint,
      used_pyramidal_bytes = used_pyramidal_bytes + ${bytes.pyramidal}::bigint,
      used_attachment_bytes = used_attachment_bytes + ${bytes.attachment}::bigint
    WHERE id = ${organizationId}
    RETURNING storage_limit_gb IS NOT NULL AND
      used_original_bytes + used_pyramidal_bytes + used_attachment_bytes
        > storage_limit_gb::bigint * ${BYTES_PER_GB}::bigint AS over`);
  if (rows[0]?.over) throw limitExceeded();
}
