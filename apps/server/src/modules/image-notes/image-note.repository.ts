import type { DrawingVisibility } from '@pathology/contract';
import { and, desc, eq, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { accounts, imageNotes, images } from '../../db/schema/index.ts';
import { accountName } from '../accounts/account-name.ts';
import { loadMentionCandidates } from '../comments/mention-candidates.ts';

const noteColumns = {
  id: imageNotes.id,
  imageId: imageNotes.imageId,
  body: imageNotes.body,
  visibility: imageNotes.visibility,
  authorAccountId: imageNotes.accountId,
  authorName: accountName,
  createdAt: imageNotes.createdAt,
  updatedAt: imageNotes.updatedAt,
};

/** Mentions to record with a note: who is named, and who wrote it. */
export interface NoteMentions {
  accountIds: readonly string[];
  authorAccountId: string;
}

/**
 * One mention per account for the note, skipping accounts it already mentions. The label is the case
 * number and the image's name, so the reader knows where to look; the message is the note's text.
 */
async function insertMentions(tx: Pick<Db, 'execute'>, noteId: string, mentions: NoteMentions): Promise<void> {
  if (mentions.accountIds.length === 0) return;
  await tx.execute(sql`
    INSERT INTO mentions (image_note_id, case_id, image_id, mentioned_account_id, author_account_id, label, message)
    SELECT n.id, i.case_id, i.id, a.id, ${mentions.authorAccountId}, c.case_number || ' / ' || i.display_name, n.body
    FROM image_notes n JOIN images i ON i.id = n.image_id JOIN cases c ON c.id = i.case_id
    CROSS JOIN unnest(${sql.param([...mentions.accountIds])}::uuid[]) AS a(id)
    WHERE n.id = ${noteId}
      AND NOT EXISTS (SELECT 1 FROM mentions x WHERE x.image_note_id = n.id AND x.mentioned_account_id = a.id)`);
}

export function createImageNoteRepository(db: Db) {
  return {
    async caseOf(imageId: string): Promise<string | undefined> {
      const [row] = await db.select({ caseId: images.caseId }).from(images).where(eq(images.id, imageId));
      return row?.caseId;
    },

    /** The image's notes the reader may see (public ones and their own), newest first. */
    async list(imageId: string, readerId: string) {
      return db
        .select(noteColumns)
        .from(imageNotes)
        .leftJoin(accounts, eq(accounts.id, imageNotes.accountId))
        .where(
          and(
            eq(imageNotes.imageId, imageId),
            or(eq(imageNotes.visibility, 'public'), eq(imageNotes.accountId, readerId)),
          ),
        )
        .orderBy(desc(imageNotes.createdAt), desc(imageNotes.id));
    },

    async find(noteId: string) {
      const [row] = await db
        .select(noteColumns)
        .from(imageNotes)
        .leftJoin(accounts, eq(accounts.id, imageNotes.accountId))
        .where(eq(imageNotes.id, noteId));
      return row;
    },

    mentionCandidates: (organizationId: string) => loadMentionCandidates(db, organizationId),

    async create(
      values: { imageId: string; accountId: string; body: string; visibility: DrawingVisibility },
      mentions: NoteMentions,
    ): Promise<string> {
      return db.transaction(async (tx) => {
        const [row] = await tx.insert(imageNotes).values(values).returning({ id: imageNotes.id });
        await insertMentions(tx, row!.id, mentions);
        return row!.id;
      });
    },

    /** Changes the note; whoever the new text names for the first time is mentioned. */
    async update(
      noteId: string,
      changes: { body?: string; visibility?: DrawingVisibility },
      mentions: NoteMentions,
    ): Promise<void> {
      await db.transaction(async (tx) => {
        await tx
          .update(imageNotes)
          .set({ ...changes, updatedAt: sql`now()` })
          .where(eq(imageNotes.id, noteId));
        await insertMentions(tx, noteId, mentions);
      });
    },

    /** Deletes the note; its mentions go with it (foreign key cascade). */
    async delete(noteId: string): Promise<void> {
      await db.delete(imageNotes).where(eq(imageNotes.id, noteId));
    },
  };
}

export type ImageNoteRepository = ReturnType<typeof createImageNoteRepository>;
export type ImageNoteRow = NonNullable<Awaited<ReturnType<ImageNoteRepository['find']>>>;
