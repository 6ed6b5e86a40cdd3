import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { cases } from './cases.ts';
import { createdAt, id } from './columns.ts';
import { labelVisibility } from './enums.ts';
import { images } from './images.ts';

/**
 * A label on a case or on an image (exactly one of the two). Private labels (the star) belong to
 * their owner and are seen by nobody else; a public label is shared, and accountId records who set it.
 */
export const labelleds = pgTable(
  'labelleds',
  {
    id: id(),
    caseId: uuid().references(() => cases.id, { onDelete: 'cascade' }),
    imageId: uuid().references(() => images.id, { onDelete: 'cascade' }),
    accountId: uuid()
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    visibilityType: labelVisibility().notNull(),
    /** "IconName-#color", see parseLabelName in the contract. */
    labelName: text().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    check('labelleds_one_target', sql`num_nonnulls(${t.caseId}, ${t.imageId}) = 1`),
    uniqueIndex('labelleds_case_private_unique')
      .on(t.caseId, t.accountId, t.labelName)
      .where(sql`${t.visibilityType} = 'private' AND ${t.caseId} IS NOT NULL`),
    uniqueIndex('labelleds_case_public_unique')
      .on(t.caseId, t.labelName)
      .where(sql`${t.visibilityType} = 'public' AND ${t.caseId} IS NOT NULL`),
    uniqueIndex('labelleds_image_private_unique')
      .on(t.imageId, t.accountId, t.labelName)
      .where(sql`${t.visibilityType} = 'private' AND ${t.imageId} IS NOT NULL`),
    uniqueIndex('labelleds_image_public_unique')
      .on(t.imageId, t.labelName)
      .where(sql`${t.visibilityType} = 'public' AND ${t.imageId} IS NOT NULL`),
    index('labelleds_account_idx').on(t.accountId),
    // Labels of a page of cases and of their images (case search), and the cascades when a case or image is deleted.
    index('labelleds_case_idx').on(t.caseId),
    index('labelleds_image_idx').on(t.imageId),
  ],
);
