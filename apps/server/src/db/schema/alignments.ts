import { sql } from 'drizzle-orm';
import { check, index, jsonb, pgTable, primaryKey, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { createdAt, updatedAt } from './columns.ts';
import { images } from './images.ts';

/** A matching pair as stored: `a` on image_a, `b` on image_b, in full-resolution image pixels. */
export interface StoredPointPair {
  a: [number, number];
  b: [number, number];
}

/**
 * The point alignment of two slides (comparison view): one row per unordered pair, kept in one order (image_a_id
 * the smaller id) so the pair cannot be saved twice from its two sides.
 */
export const imageAlignments = pgTable(
  'image_alignments',
  {
    imageAId: uuid()
      .notNull()
      .references(() => images.id, { onDelete: 'cascade' }),
    imageBId: uuid()
      .notNull()
      .references(() => images.id, { onDelete: 'cascade' }),
    points: jsonb().$type<StoredPointPair[]>().notNull(),
    updatedByAccountId: uuid().references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.imageAId, t.imageBId] }),
    index('image_alignments_image_b_idx').on(t.imageBId),
    check('image_alignments_ordered_pair', sql`${t.imageAId} < ${t.imageBId}`),
  ],
);
