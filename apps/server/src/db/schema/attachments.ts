import { bigint, pgTable, text, unique, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { cases } from './cases.ts';
import { createdAt, id } from './columns.ts';

/** A document attached to a case (report PDF, spreadsheet, ...). */
export const attachments = pgTable(
  'attachments',
  {
    id: id(),
    caseId: uuid()
      .notNull()
      .references(() => cases.id, { onDelete: 'cascade' }),
    filename: text().notNull(),
    contentType: text().notNull(),
    sizeBytes: bigint({ mode: 'number' }).notNull(),
    blobKey: text().notNull(),
    uploadAccountId: uuid().references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [unique('attachments_case_filename_unique').on(t.caseId, t.filename)],
);
