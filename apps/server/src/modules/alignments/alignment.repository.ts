import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { accounts, imageAlignments, images, type StoredPointPair } from '../../db/schema/index.ts';
import { accountName } from '../accounts/account-name.ts';

/** One stored alignment row, its pair in stored order (imageAId < imageBId). */
export interface AlignmentRow {
  imageAId: string;
  imageBId: string;
  points: StoredPointPair[];
  updatedAt: Date;
  updatedByName: string | null;
}

export interface AlignedImage {
  caseId: string;
  size: { width: number; height: number } | null;
}

export function createAlignmentRepository(db: Db) {
  const pairIs = (imageAId: string, imageBId: string) =>
    and(eq(imageAlignments.imageAId, imageAId), eq(imageAlignments.imageBId, imageBId));

  return {
    /** The image's case and size (null until its conversion has read it). */
    async imageOf(imageId: string): Promise<AlignedImage | undefined> {
      const [row] = await db
        .select({ caseId: images.caseId, width: images.width, height: images.height })
        .from(images)
        .where(eq(images.id, imageId));
      if (row === undefined) return undefined;
      const { caseId, width, height } = row;
      return { caseId, size: width === null || height === null ? null : { width, height } };
    },

    async find(imageAId: string, imageBId: string): Promise<AlignmentRow | undefined> {
      const [row] = await db
        .select({
          imageAId: imageAlignments.imageAId,
          imageBId: imageAlignments.imageBId,
          points: imageAlignments.points,
          updatedAt: imageAlignments.updatedAt,
          updatedByName: accountName,
        })
        .from(imageAlignments)
        .leftJoin(accounts, eq(accounts.id, imageAlignments.updatedByAccountId))
        .where(pairIs(imageAId, imageBId));
      return row;
    },

    /** Inserts or replaces the pair's points (the last one to align the pair wins). */
    async save(imageAId: string, imageBId: string, points: StoredPointPair[], accountId: string): Promise<void> {
      await db
        .insert(imageAlignments)
        .values({ imageAId, imageBId, points, updatedByAccountId: accountId })
        .onConflictDoUpdate({
          target: [imageAlignments.imageAId, imageAlignments.imageBId],
          set: { points, updatedByAccountId: accountId, updatedAt: sql`now()` },
        });
    },

    /** Whether a row was there to delete. */
    async delete(imageAId: string, imageBId: string): Promise<boolean> {
      const deleted = await db
        .delete(imageAlignments)
        .where(pairIs(imageAId, imageBId))
        .returning({ id: imageAlignments.imageAId });
      return deleted.length > 0;
    },
  };
}

export type AlignmentRepository = ReturnType<typeof createAlignmentRepository>;
