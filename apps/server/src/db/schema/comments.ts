import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { cases } from './cases.ts';
import { createdAt, id, updatedAt } from './columns.ts';
import { images } from './images.ts';
import { imageNotes } from './drawings.ts';

/** The comment thread of a case, optionally about one of its images. */
export const comments = pgTable(
  'comments',
  {
    id: id(),
    caseId: uuid()
      .notNull()
      .references(() => cases.id, { onDelete: 'cascade' }),
    imageId: uuid().references(() => images.id, { onDelete: 'cascade' }),
    // Comments outlive their author's account: the discussion of a case stays readable.
    accountId: uuid().references(() => accounts.id, { onDelete: 'set null' }),
    body: text().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('comments_case_created_idx').on(t.caseId, t.createdAt), index('comments_image_idx').on(t.imageId)],
);

/** An @mention of an account, listed newest first with a cursor on (createdAt, id). */
export const mentions = pgTable(
  'mentions',
  {
    id: id(),
    commentId: uuid().references(() => comments.id, { onDelete: 'cascade' }),
    /** Set instead of commentId for a mention made in a note on an image. */
    imageNoteId: uuid().references(() => imageNotes.id, { onDelete: 'cascade' }),
    caseId: uuid()
      .notNull()
      .references(() => cases.id, { onDelete: 'cascade' }),
    imageId: uuid().references(() => images.id, { onDelete: 'cascade' }),
    mentionedAccountId: uuid()
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    authorAccountId: uuid().references(() => accounts.id, { onDelete: 'set null' }),
    /** What the mention is about, e.g. the case number (and image name). */
    label: text().notNull(),
    message: text().notNull(),
    readAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('mentions_recipient_created_idx').on(t.mentionedAccountId, t.createdAt.desc(), t.id.desc()),
    index('mentions_comment_idx').on(t.commentId),
    index('mentions_image_note_idx').on(t.imageNoteId),
    index('mentions_case_idx').on(t.caseId),
  ],
);
