import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { LabelInput } from '@pathology/contract';
import type { Db } from '../../db/client.ts';
import { images, labelleds } from '../../db/schema/index.ts';

/** Private labels are per owner; a public one is shared, whoever set it. */
function sameLabel(label: LabelInput, accountId: string) {
  const name = and(eq(labelleds.visibilityType, label.visibilityType), eq(labelleds.labelName, label.labelName));
  return label.visibilityType === 'private' ? and(name, eq(labelleds.accountId, accountId)) : name;
}

export function createLabelRepository(db: Db) {
  return {
    async findImageCase(imageId: string): Promise<string | undefined> {
      const [row] = await db.select({ caseId: images.caseId }).from(images).where(eq(images.id, imageId));
      return row?.caseId;
    },

    /** Puts the label on the case and on every image of it that lacks it, in one statement. */
    async labelCase(caseId: string, label: LabelInput, accountId: string): Promise<void> {
      await db.transaction(async (tx) => {
        const values = { accountId, visibilityType: label.visibilityType, labelName: label.labelName };
        await tx
          .insert(labelleds)
          .values({ ...values, caseId })
          .onConflictDoNothing();
        await tx.execute(sql`
          INSERT INTO labelleds (image_id, account_id, visibility_type, label_name)
          SELECT i.id, ${accountId}, ${label.visibilityType}, ${label.labelName} FROM images i WHERE i.case_id = ${caseId}
          ON CONFLICT DO NOTHING`);
      });
    },

    /** Removes the label from the case and from all its images. */
    async unlabelCase(caseId: string, label: LabelInput, accountId: string): Promise<number> {
      const caseImages = db.select({ id: images.id }).from(images).where(eq(images.caseId, caseId));
      const deleted = await db
        .delete(labelleds)
        .where(
          and(or(eq(labelleds.caseId, caseId), inArray(labelleds.imageId, caseImages)), sameLabel(label, accountId)),
        )
        .returning({ id: labelleds.id });
      return deleted.length;
    },

    async labelImage(imageId: string, label: LabelInput, accountId: string) {
      await db
        .insert(labelleds)
        .values({ imageId, accountId, visibilityType: label.visibilityType, labelName: label.labelName })
        .onConflictDoNothing();
      const [row] = await db
        .select({ id: labelleds.id, labelName: labelleds.labelName })
        .from(labelleds)
        .where(and(eq(labelleds.imageId, imageId), sameLabel(label, accountId)));
      return row!;
    },

    async findLabel(labelId: string) {
      const [row] = await db
        .select({
          id: labelleds.id,
          imageId: labelleds.imageId,
          accountId: labelleds.accountId,
          visibilityType: labelleds.visibilityType,
        })
        .from(labelleds)
        .where(eq(labelleds.id, labelId));
      return row;
    },

    async deleteLabel(labelId: string): Promise<void> {
      await db.delete(labelleds).where(eq(labelleds.id, labelId));
    },

    /** What the case itself carries now: public labels and the caller's star. */
    async caseLabels(caseId: string, accountId: string) {
      return db
        .select({ id: labelleds.id, labelName: labelleds.labelName })
        .from(labelleds)
        .where(
          and(
            eq(labelleds.caseId, caseId),
            or(eq(labelleds.visibilityType, 'public'), eq(labelleds.accountId, accountId)),
          ),
        );
    },
  };
}

export type LabelRepository = ReturnType<typeof createLabelRepository>;
