import { MentionListQuerySchema, MentionListSchema, NEW_FOR_DAYS, type MentionList } from '@pathology/contract';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';

type MentionRow = {
  id: string;
  /** As PostgreSQL wrote it (text). */
  createdAt: string;
  caseId: string;
  imageId: string | null;
  label: string;
  message: string;
  authorName: string | null;
  isNew: boolean;
};

/** The cursor of a page: where the next one starts, opaque to the client. */
const encodeCursor = (row: MentionRow) => Buffer.from(`${row.createdAt}|${row.id}`).toString('base64url');

function decodeCursor(next: string | undefined): { at: string; id: string } | null {
  if (!next) return null;
  const [at, id] = Buffer.from(next, 'base64url').toString().split('|');
  if (!at || !id || Number.isNaN(Date.parse(at)) || !/^[0-9a-f-]{36}$/.test(id)) return null;
  return { at, id };
}

/** The caller's mentions, newest first, a page at a time (part 3 §7): from comments and image notes alike. */
export async function listMentions(db: Db, accountId: string, limit: number, next?: string): Promise<MentionList> {
  const cursor = decodeCursor(next);
  const { rows } = await db.execute<MentionRow>(sql`
    SELECT m.id, m.created_at AS "createdAt", m.case_id AS "caseId", m.image_id AS "imageId", m.label, m.message,
      NULLIF(COALESCE(NULLIF(a.display_name, ''), trim(a.first_name || ' ' || a.last_name)), '') AS "authorName",
      (m.created_at > now() - make_interval(days => ${NEW_FOR_DAYS})) AS "isNew"
    FROM mentions m LEFT JOIN accounts a ON a.id = m.author_account_id
    WHERE m.mentioned_account_id = ${accountId}
      ${cursor ? sql`AND (m.created_at, m.id) < (${cursor.at}::timestamptz, ${cursor.id}::uuid)` : sql``}
    ORDER BY m.created_at DESC, m.id DESC LIMIT ${limit + 1}`);
  const page = rows.slice(0, limit);
  return {
    data: page.map((row) => ({ ...row, createdAt: new Date(row.createdAt).toISOString() })),
    next: rows.length > limit ? encodeCursor(page.at(-1)!) : null,
  };
}

export const mentionRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/mentions',
    {
      schema: {
        operationId: 'listMentions',
        tags: ['mentions'],
        summary: "The caller's mentions in comments and image notes, newest first; `next` continues",
        querystring: MentionListQuerySchema,
        response: { 200: MentionListSchema },
      },
    },
    (request) => listMentions(db, request.caller.accountId, request.query.limit, request.query.next),
  );
};
