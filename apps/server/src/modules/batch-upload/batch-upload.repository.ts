import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { cases, images } from '../../db/schema/index.ts';

export function createBatchUploadRepository(db: Db) {
  return {
    /**
     * The case of the group for each case number that has one. Case numbers are not unique, so when
     * several cases share one the oldest is taken (the one a lab most likely means).
     */
    async casesByNumber(organizationId: string, caseNumbers: readonly string[]): Promise<Map<string, string>> {
      if (caseNumbers.length === 0) return new Map();
      const rows = await db
        .selectDistinctOn([cases.caseNumber], { id: cases.id, caseNumber: cases.caseNumber })
        .from(cases)
        .where(and(eq(cases.ownerOrganizationId, organizationId), inArray(cases.caseNumber, [...caseNumbers])))
        .orderBy(asc(cases.caseNumber), asc(cases.createdAt), asc(cases.id));
      return new Map(rows.map((row) => [row.caseNumber, row.id]));
    },

    /** `caseId filename` pairs of the images these cases already have under these names. */
    async existingImageNames(caseIds: readonly string[], filenames: readonly string[]): Promise<Set<string>> {
      if (caseIds.length === 0 || filenames.length === 0) return new Set();
      const rows = await db
        .select({ caseId: images.caseId, filename: images.filename })
        .from(images)
        .where(and(inArray(images.caseId, [...caseIds]), inArray(images.filename, [...filenames])));
      return new Set(rows.map((row) => imageNameKey(row.caseId, row.filename)));
    },
  };
}

export const imageNameKey = (caseId: string, filename: string) => `${caseId} ${filename}`;

export type BatchUploadRepository = ReturnType<typeof createBatchUploadRepository>;
