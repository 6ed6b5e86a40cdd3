import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { attachments, cases, comments, contracts, images, organizations } from '../../db/schema/index.ts';
import { adjustUsage, caseBlobKeys, caseBytesByOwner, moveUsage, unreferencedKeys } from './case-storage.ts';

export type CaseInsert = Omit<typeof cases.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>;
export type CaseChanges = Partial<Omit<CaseInsert, 'createdByAccountId'>>;

/** What blocks a non-recursive deletion. */
export interface CaseContents {
  images: number;
  attachments: number;
  comments: number;
}

export type DeleteCaseResult =
  | { status: 'deleted'; caseNumber: string; releasedBlobKeys: string[] }
  | { status: 'has_contents'; contents: CaseContents }
  | { status: 'not_found' };

const FOREIGN_KEY_VIOLATION = '23503';

function isForeignKeyViolation(error: unknown): boolean {
  const cause = error instanceof Error && error.cause != null ? error.cause : error;
  return typeof cause === 'object' && cause != null && 'code' in cause && cause.code === FOREIGN_KEY_VIOLATION;
}

const countOf = (table: typeof attachments | typeof comments) =>
  sql<number>`(SELECT count(*) FROM ${table} WHERE ${table.caseId} = ${cases.id})`.mapWith(Number);

export function createCaseRepository(db: Db) {
  return {
    /** The cases with their owner group, contract and counts; missing ids are simply absent. */
    async findCases(ids: readonly string[]) {
      if (ids.length === 0) return [];
      return db
        .select({
          id: cases.id,
          caseNumber: cases.caseNumber,
          ownerOrganizationId: cases.ownerOrganizationId,
          organizationName: organizations.name,
          contractId: organizations.contractId,
          contractName: contracts.name,
          intendedOwnerOrganizationId: cases.intendedOwnerOrganizationId,
          organ: cases.organ,
          specimenType: cases.specimenType,
          diagnosis: cases.diagnosis,
          grossFindings: cases.grossFindings,
          microscopicFindings: cases.microscopicFindings,
          comments: cases.comments,
          tags: cases.tags,
          isPublic: cases.isPublic,
          createdAt: cases.createdAt,
          updatedAt: cases.updatedAt,
          numberOfAttachments: countOf(attachments),
          numberOfComments: countOf(comments),
          imageStatusCounts: sql<Record<string, number>>`(
            SELECT coalesce(jsonb_object_agg(s.status, s.n), '{}'::jsonb)
            FROM (SELECT ${images.status} AS status, count(*)::int AS n FROM ${images}
              WHERE ${images.caseId} = ${cases.id} GROUP BY ${images.status}) s)`,
        })
        .from(cases)
        .innerJoin(organizations, eq(organizations.id, cases.ownerOrganizationId))
        .innerJoin(contracts, eq(contracts.id, organizations.contractId))
        .where(inArray(cases.id, [...ids]));
    },

    /** Inserts a case; null when a group it names vanished since it was checked. */
    async insertCase(values: CaseInsert): Promise<string | null> {
      try {
        const [row] = await db.insert(cases).values(values).returning({ id: cases.id });
        return row!.id;
      } catch (error) {
        if (isForeignKeyViolation(error)) return null;
        throw error;
      }
    },

    /**
     * Applies the changes when the case still belongs to `expectedOwnerId` (the owner its rights
     * were judged on); a new owner takes the case's storage usage along. False when the case moved
     * or vanished meanwhile, or a group it names vanished.
     */
    async updateCase(caseId: string, changes: CaseChanges, expectedOwnerId: string): Promise<boolean> {
      try {
        return await db.transaction(async (tx) => {
          const [row] = await tx
            .select({ owner: cases.ownerOrganizationId })
            .from(cases)
            .where(eq(cases.id, caseId))
            .for('update');
          if (row?.owner !== expectedOwnerId) return false;
          if (Object.keys(changes).length === 0) return true;
          if (changes.ownerOrganizationId != null && changes.ownerOrganizationId !== row.owner) {
            await moveUsage(tx, [caseId], changes.ownerOrganizationId);
          }
          await tx.update(cases).set(changes).where(eq(cases.id, caseId));
          return true;
        });
      } catch (error) {
        if (isForeignKeyViolation(error)) return false;
        throw error;
      }
    },

    /**
     * Deletes the case, unless it has contents and `recursive` is false. The row lock makes the
     * check and the deletion one step: adding an image or comment meanwhile waits for it (the
     * foreign key check locks the case row). Returns the blob keys nothing references any more,
     * for the blob store to delete once the rows are gone.
     */
    async deleteCase(caseId: string, options: { recursive: boolean }): Promise<DeleteCaseResult> {
      return db.transaction(async (tx): Promise<DeleteCaseResult> => {
        const [row] = await tx
          .select({ caseNumber: cases.caseNumber, owner: cases.ownerOrganizationId })
          .from(cases)
          .where(eq(cases.id, caseId))
          .for('update');
        if (row == null) return { status: 'not_found' };
        const { rows } = await tx.execute<{ images: number; attachments: number; comments: number }>(sql`
          SELECT (SELECT count(*)::int FROM images WHERE case_id = ${caseId}) AS images,
            (SELECT count(*)::int FROM attachments WHERE case_id = ${caseId}) AS attachments,
            (SELECT count(*)::int FROM comments WHERE case_id = ${caseId}) AS comments`);
        const contents = rows[0]!;
        const empty = contents.images === 0 && contents.attachments === 0 && contents.comments === 0;
        if (!empty && !options.recursive) return { status: 'has_contents', contents };

        const keys = await caseBlobKeys(tx, caseId);
        const bytes = await caseBytesByOwner(tx, [caseId]);
        // Everything below the case (images, layers, comments, mentions, grants, labels…) cascades.
        await tx.delete(cases).where(eq(cases.id, caseId));
        const usage = bytes.get(row.owner);
        if (usage != null) await adjustUsage(tx, row.owner, usage, -1);
        return { status: 'deleted', caseNumber: row.caseNumber, releasedBlobKeys: await unreferencedKeys(tx, keys) };
      });
    },

    /**
     * Moves the cases to `destinationId` in one transaction, with their storage usage, when every
     * one of them still belongs to `sourceId`; otherwise moves none and names the ones that do not.
     */
    async moveCases(
      caseIds: readonly string[],
      sourceId: string,
      destinationId: string,
    ): Promise<{ moved: true } | { moved: false; strayCaseNumbers: string[] }> {
      return db.transaction(async (tx) => {
        const rows = await tx
          .select({ id: cases.id, caseNumber: cases.caseNumber, owner: cases.ownerOrganizationId })
          .from(cases)
          .where(inArray(cases.id, [...caseIds]))
          .orderBy(cases.id) // one lock order for every mover, so two bulk moves cannot deadlock
          .for('update');
        const found = new Set(rows.map((row) => row.id));
        const stray = rows.filter((row) => row.owner !== sourceId).map((row) => row.caseNumber);
        if (stray.length > 0 || caseIds.some((id) => !found.has(id))) return { moved: false, strayCaseNumbers: stray };
        if (sourceId === destinationId) return { moved: true };
        await moveUsage(tx, caseIds, destinationId);
        await tx
          .update(cases)
          .set({ ownerOrganizationId: destinationId })
          .where(inArray(cases.id, [...caseIds]));
        return { moved: true };
      });
    },
  };
}

export type CaseRepository = ReturnType<typeof createCaseRepository>;
export type CaseRow = Awaited<ReturnType<CaseRepository['findCases']>>[number];
