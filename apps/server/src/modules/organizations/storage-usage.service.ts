import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

/**
 * Recounts from the stored rows the bytes a group uses: originals of its cases' images, their
 * pyramids, and attachments. The running totals are kept on every change; this repairs drift
 * (a crash between writing a blob and its counter). Returns false when the group no longer exists.
 */
export async function recountStorageUsage(db: Db, organizationId: string): Promise<boolean> {
  const result = await db.execute(sql`
    UPDATE organizations o SET
      used_original_bytes = coalesce((
        SELECT sum(i.size) FROM images i JOIN cases c ON c.id = i.case_id WHERE c.owner_organization_id = o.id), 0),
      used_pyramidal_bytes = coalesce((
        SELECT sum(l.pyramidal_size) FROM image_layers l JOIN images i ON i.id = l.image_id
        JOIN cases c ON c.id = i.case_id WHERE c.owner_organization_id = o.id), 0),
      used_attachment_bytes = coalesce((
        SELECT sum(a.size_bytes) FROM attachments a JOIN cases c ON c.id = a.case_id
        WHERE c.owner_organization_id = o.id), 0)
    WHERE o.id = ${organizationId}`);
  return (result.rowCount ?? 0) > 0;
}
