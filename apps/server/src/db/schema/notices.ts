import { bigint, boolean, index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { createdAt, id, updatedAt } from './columns.ts';
import { groupRole } from './enums.ts';

/** An announcement by a super user, shown between openAt and closeAt to accounts with at least `permission`. */
export const notices = pgTable(
  'notices',
  {
    id: id(),
    title: text().notNull(),
    overview: text().notNull(),
    /** Sanitised HTML. */
    body: text().notNull(),
    openAt: timestamp({ withTimezone: true }).notNull(),
    closeAt: timestamp({ withTimezone: true }),
    permission: groupRole().notNull().default('read_only'),
    isDraft: boolean().notNull().default(true),
    authorAccountId: uuid().references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('notices_open_idx').on(t.isDraft, t.openAt)],
);

export const noticeReads = pgTable(
  'notice_reads',
  {
    noticeId: uuid()
      .notNull()
      .references(() => notices.id, { onDelete: 'cascade' }),
    accountId: uuid()
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    readAt: timestamp({ withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [primaryKey({ columns: [t.noticeId, t.accountId] }), index('notice_reads_account_idx').on(t.accountId)],
);

/** Pictures inserted in a notice body; uploaded before the notice is saved, so not tied to one notice. */
export const noticeMedia = pgTable('notice_media', {
  id: id(),
  blobKey: text().notNull(),
  contentType: text().notNull(),
  sizeBytes: bigint({ mode: 'number' }).notNull().default(0),
  uploadedByAccountId: uuid().references(() => accounts.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
});
