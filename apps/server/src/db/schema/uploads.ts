import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { attachments } from './attachments.ts';
import { cases } from './cases.ts';
import { createdAt, id, updatedAt } from './columns.ts';
import { uploadKind, uploadStatus } from './enums.ts';
import { images } from './images.ts';

/**
 * One upload in flight or finished. An interrupted upload stays `receiving` and continues from
 * receivedBytes; blobKey names the partial blob until it completes.
 */
export const uploadRecords = pgTable(
  'upload_records',
  {
    id: id(),
    kind: uploadKind().notNull(),
    caseId: uuid()
      .notNull()
      .references(() => cases.id, { onDelete: 'cascade' }),
    imageId: uuid().references(() => images.id, { onDelete: 'cascade' }),
    attachmentId: uuid().references(() => attachments.id, { onDelete: 'cascade' }),
    accountId: uuid().references(() => accounts.id, { onDelete: 'set null' }),
    filename: text().notNull(),
    blobKey: text().notNull(),
    /** Null when the client did not announce a length. */
    totalBytes: bigint({ mode: 'number' }),
    receivedBytes: bigint({ mode: 'number' }).notNull().default(0),
    status: uploadStatus().notNull().default('receiving'),
    error: text(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('upload_records_account_status_idx').on(t.accountId, t.status),
    index('upload_records_case_idx').on(t.caseId),
    index('upload_records_status_updated_idx').on(t.status, t.updatedAt),
    check(
      'upload_records_bytes_in_range',
      sql`${t.receivedBytes} >= 0 AND (${t.totalBytes} IS NULL OR ${t.receivedBytes} <= ${t.totalBytes})`,
    ),
  ],
);
