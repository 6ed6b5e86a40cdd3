import { and, asc, count, eq, type SQL } from 'drizzle-orm';
import type { Caller } from '../../auth/caller.ts';
import { visibleCasesCondition } from '../../auth/capabilities/index.ts';
import type { Db } from '../../db/client.ts';
import { cases, imageLayers, images } from '../../db/schema/index.ts';
import { SLIDE_COLUMNS, SLIDE_JOIN_CONDITION, type SlideRow } from './dicom-slide.ts';

export interface StudyRow {
  caseId: string;
  caseNumber: string;
  organ: string | null;
  specimenType: string | null;
  seriesCount: number;
}

/**
 * The studies and series a caller may see: converted slides of visible cases, nothing else, so what the caller
 * may not see never shows in a search. Ordered by case number, then id, so limit and offset page steadily.
 */
export function createDicomSearch(db: Db) {
  return {
    async studies(caller: Caller, conditions: SQL[], limit: number, offset: number): Promise<StudyRow[]> {
      return db
        .select({
          caseId: cases.id,
          caseNumber: cases.caseNumber,
          organ: cases.organ,
          specimenType: cases.specimenType,
          seriesCount: count(images.id),
        })
        .from(cases)
        .innerJoin(images, eq(images.caseId, cases.id))
        .innerJoin(imageLayers, eq(imageLayers.imageId, images.id))
        .where(and(visibleCasesCondition(caller), SLIDE_JOIN_CONDITION, ...conditions))
        .groupBy(cases.id)
        .orderBy(asc(cases.caseNumber), asc(cases.id))
        .limit(limit)
        .offset(offset);
    },

    async series(caller: Caller, conditions: SQL[], limit: number, offset: number): Promise<SlideRow[]> {
      return db
        .select(SLIDE_COLUMNS)
        .from(images)
        .innerJoin(cases, eq(cases.id, images.caseId))
        .innerJoin(imageLayers, eq(imageLayers.imageId, images.id))
        .where(and(visibleCasesCondition(caller), SLIDE_JOIN_CONDITION, ...conditions))
        .orderBy(asc(cases.caseNumber), asc(cases.id), asc(images.createdAt), asc(images.id))
        .limit(limit)
        .offset(offset);
    },
  };
}

export type DicomSearch = ReturnType<typeof createDicomSearch>;
