import { and, asc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { attachments, cases } from '../../db/schema/index.ts';
import { adjustUsage, unreferencedKeys } from '../cases/case-storage.ts';
import { addUsageWithinLimit, assertStorageRoom } from '../cases/storage-quota.ts';

/** An attachment as stored. */
export type AttachmentRow = typeof attachments.$inferSelect;
export type AttachmentInsert = Omit<typeof attachments.$inferInsert, 'createdAt'> & { id: string };

export type InsertAttachmentResult =
  { status: 'inserted'; row: AttachmentRow } | { status: 'duplicate' } | { status: 'case_not_found' };

const UNIQUE_VIOLATION = '23505';

function isUniqueViolation(error: unknown): boolean {
  const cause = error instanceof Error && error.cause != null ? error.cause : error;
  return typeof cause === 'object' && cause != null && 'code' in cause && cause.code === UNIQUE_VIOLATION;
}

/**
 * The owner group of a case, with the row locked against a transfer until the transaction ends,
 * so usage is counted to the group that owns the case when the attachment row appears or goes.
 */
async function lockedOwner(tx: Tx, caseId: string): Promise<string | undefined> {
  const [row] = await tx
    .select({ owner: cases.ownerOrganizationId })
    .from(cases)
    .where(eq(cases.id, caseId))
    .for('share');
  return row?.owner;
}

const attachmentBytes = (size: number) => ({ original: 0, pyramidal: 0, attachment: size });

export function createAttachmentRepository(db: Db) {
  return {
    /** The attachments of a case, by filename. */
    async list(caseId: string) {
      return db
        .select()
        .from(attachments)
        .where(eq(attachments.caseId, caseId))
        .orderBy(asc(attachments.filename), asc(attachments.id));
    },

    /** The attachment when it belongs to the case; an attachment of another case is absent. */
    async find(caseId: string, attachmentId: string) {
      const [row] = await db
        .select()
        .from(attachments)
        .where(and(eq(attachments.id, attachmentId), eq(attachments.caseId, caseId)));
      return row;
    },

    async filenameTaken(caseId: string, filename: string): Promise<boolean> {
      const [row] = await db
        .select({ id: attachments.id })
        .from(attachments)
        .where(and(eq(attachments.caseId, caseId), eq(attachments.filename, filename)))
        .limit(1);
      return row != null;
    },

    /** Records a stored attachment and adds its bytes to the owner group's usage, in one transaction. */
    /** 413 before the upload is read when the group has no room for it. */
    assertStorageRoom: (organizationId: string, announcedBytes: number | undefined) =>
      assertStorageRoom(db, organizationId, announcedBytes),

    async insert(values: AttachmentInsert): Promise<InsertAttachmentResult> {
      try {
        return await db.transaction(async (tx): Promise<InsertAttachmentResult> => {
          const owner = await lockedOwner(tx, values.caseId);
          if (owner == null) return { status: 'case_not_found' };
          const [row] = await tx.insert(attachments).values(values).returning();
          await addUsageWithinLimit(tx, owner, attachmentBytes(values.sizeBytes));
          return { status: 'inserted', row: row! };
        });
      } catch (error) {
        if (isUniqueViolation(error)) return { status: 'duplicate' };
        throw error;
      }
    },

    /**
     * Deletes the attachment of the case and takes its bytes off the owner group's usage. Returns
     * the blob keys no row refers to any more (for the blob store), or null when it was not there.
     */
    async delete(caseId: string, attachmentId: string): Promise<string[] | null> {
      return db.transaction(async (tx) => {
        const owner = await lockedOwner(tx, caseId);
        if (owner == null) return null;
        const [row] = await tx
          .delete(attachments)
          .where(and(eq(attachments.id, attachmentId), eq(attachments.caseId, caseId)))
          .returning({ sizeBytes: attachments.sizeBytes, blobKey: attachments.blobKey });
        if (row == null) return null;
        await adjustUsage(tx, owner, attachmentBytes(row.sizeBytes), -1);
        return unreferencedKeys(tx, [row.blobKey]);
      });
    },
  };
}

export type AttachmentRepository = ReturnType<typeof createAttachmentRepository>;
