import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { accounts, comments, images } from '../../db/schema/index.ts';
import { accountName } from '../accounts/account-name.ts';
import { loadMentionCandidates } from './mention-candidates.ts';

const commentColumns = {
  id: comments.id,
  caseId: comments.caseId,
  imageId: comments.imageId,
  body: comments.body,
  authorAccountId: comments.accountId,
  authorName: accountName,
  createdAt: comments.createdAt,
  updatedAt: comments.updatedAt,
};

/** Mentions to record with a comment: who is mentioned, and by whom. */
export interface NewMentions {
  accountIds: readonly string[];
  authorAccountId: string;
}

/**
 * Inserts one mention per account for the comment, skipping accounts it already mentions (once per
 * user per comment). The label is the case number, the message the comment's text.
 */
async function insertMentions(tx: Pick<Db, 'execute'>, commentId: string, mentions: NewMentions): Promise<void> {
  if (mentions.accountIds.length === 0) return;
  await tx.execute(sql`
    INSERT INTO mentions (comment_id, case_id, image_id, mentioned_account_id, author_account_id, label, message)
    SELECT m.id, m.case_id, m.image_id, a.id, ${mentions.authorAccountId}, c.case_number, m.body
    FROM comments m JOIN cases c ON c.id = m.case_id
    CROSS JOIN unnest(${sql.param([...mentions.accountIds])}::uuid[]) AS a(id)
    WHERE m.id = ${commentId}
      AND NOT EXISTS (SELECT 1 FROM mentions x WHERE x.comment_id = m.id AND x.mentioned_account_id = a.id)`);
}

export function createCommentRepository(db: Db) {
  return {
    /** The thread of a case, oldest first, so the newest comment is last. */
    async list(caseId: string) {
      return db
        .select(commentColumns)
        .from(comments)
        .leftJoin(accounts, eq(accounts.id, comments.accountId))
        .where(eq(comments.caseId, caseId))
        .orderBy(asc(comments.createdAt), asc(comments.id));
    },

    async find(commentId: string) {
      const [row] = await db
        .select(commentColumns)
        .from(comments)
        .leftJoin(accounts, eq(accounts.id, comments.accountId))
        .where(eq(comments.id, commentId));
      return row;
    },

    async imageInCase(imageId: string, caseId: string): Promise<boolean> {
      const [row] = await db
        .select({ id: images.id })
        .from(images)
        .where(and(eq(images.id, imageId), eq(images.caseId, caseId)));
      return row != null;
    },

    /** Members of a group, as people a comment may mention. */
    mentionCandidates: (organizationId: string) => loadMentionCandidates(db, organizationId),

    /** Inserts the comment and its mentions together. */
    async create(
      values: { caseId: string; imageId: string | null; accountId: string; body: string },
      mentions: NewMentions,
    ): Promise<string> {
      return db.transaction(async (tx) => {
        const [row] = await tx.insert(comments).values(values).returning({ id: comments.id });
        await insertMentions(tx, row!.id, mentions);
        return row!.id;
      });
    },

    /** Changes the text and mentions whoever it newly names; earlier mentions stay as they were sent. */
    async update(commentId: string, body: string, mentions: NewMentions): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.update(comments).set({ body }).where(eq(comments.id, commentId));
        await insertMentions(tx, commentId, mentions);
      });
    },

    /** Deletes the comment; its mentions go with it (foreign key cascade). */
    async delete(commentId: string): Promise<void> {
      await db.delete(comments).where(eq(comments.id, commentId));
    },
  };
}

export type CommentRepository = ReturnType<typeof createCommentRepository>;
export type CommentRow = NonNullable<Awaited<ReturnType<CommentRepository['find']>>>;
