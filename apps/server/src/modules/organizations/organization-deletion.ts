import type { OrganizationPurgeCheck } from '@pathology/contract';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { cases, organizations } from '../../db/schema/index.ts';
import { caseBlobKeys, unreferencedKeys } from '../cases/case-storage.ts';

/** What deleting the group would take with it, for the confirmation that names it. */
export async function purgeCheck(db: Db, organizationId: string): Promise<OrganizationPurgeCheck> {
  const { rows } = await db.execute<OrganizationPurgeCheck>(sql`
    SELECT
      (SELECT count(*)::int FROM cases c WHERE c.owner_organization_id = o.id) AS "caseCount",
      (SELECT count(*)::int FROM images i JOIN cases c ON c.id = i.case_id
        WHERE c.owner_organization_id = o.id) AS "imageCount",
      (SELECT count(*)::int FROM attachments a JOIN cases c ON c.id = a.case_id
        WHERE c.owner_organization_id = o.id) AS "attachmentCount",
      (SELECT count(*)::int FROM memberships m WHERE m.organization_id = o.id) AS "memberCount",
      (o.used_original_bytes + o.used_pyramidal_bytes + o.used_attachment_bytes)::float8 AS "totalBytes"
    FROM organizations o WHERE o.id = ${organizationId}`);
  return rows[0] ?? { caseCount: 0, imageCount: 0, attachmentCount: 0, memberCount: 0, totalBytes: 0 };
}

export type DeleteOrganizationResult =
  | { status: 'not_found' }
  | { status: 'has_contents'; check: OrganizationPurgeCheck }
  | { status: 'deleted'; releasedBlobKeys: string[] };

/**
 * Deletes the group; with `recursive` also its cases and everything under them (memberships,
 * grants, partners and invitations cascade). The group row is locked first, so a case created
 * meanwhile waits and then fails on the vanished group. Returns the blob keys to remove afterwards.
 */
export async function deleteOrganization(
  db: Db,
  organizationId: string,
  options: { recursive: boolean },
): Promise<DeleteOrganizationResult> {
  return db.transaction(async (tx): Promise<DeleteOrganizationResult> => {
    const [row] = await tx
      .select({ id: organizations.id })
      .from(organizations)
      .where(eq(organizations.id, organizationId))
      .for('update');
    if (row == null) return { status: 'not_found' };
    const caseRows = await tx.select({ id: cases.id }).from(cases).where(eq(cases.ownerOrganizationId, organizationId));
    if (caseRows.length > 0 && !options.recursive) {
      return { status: 'has_contents', check: await purgeCheck(db, organizationId) };
    }
    const keys: string[] = [];
    for (const kase of caseRows) keys.push(...(await caseBlobKeys(tx, kase.id)));
    await tx.delete(cases).where(eq(cases.ownerOrganizationId, organizationId));
    await tx.delete(organizations).where(eq(organizations.id, organizationId));
    return { status: 'deleted', releasedBlobKeys: await unreferencedKeys(tx, keys) };
  });
}
