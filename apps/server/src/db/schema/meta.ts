import { jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { updatedAt, type JsonValue } from './columns.ts';

/** Installation-wide facts, e.g. `demo_seeded`. */
export const appMeta = pgTable('app_meta', {
  key: text().primaryKey(),
  value: jsonb().$type<JsonValue>().notNull(),
  updatedAt: updatedAt(),
});
