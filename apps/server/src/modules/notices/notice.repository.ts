import { GROUP_ROLES, NEW_FOR_DAYS, type Notice } from '@pathology/contract';
import { sql } from 'drizzle-orm';
import { acceptedMembership } from '../../auth/capabilities/index.ts';
import type { Db } from '../../db/client.ts';
import { memberships } from '../../db/schema/index.ts';

/** Who asks, and from which side: a reader gets what reaches them, the poster screens (super users only) every notice. */
export interface NoticeReader {
  accountId: string;
  isSuperUser: boolean;
  poster: boolean;
}

export interface NoticeValues {
  title: string;
  overview: string;
  body: string;
  openAt: Date;
  closeAt: Date | null;
  permission: (typeof GROUP_ROLES)[number];
  isDraft: boolean;
}

/** Timestamps come back as PostgreSQL wrote them (text); the service makes them ISO strings. */
type NoticeRow = Notice & { total?: number };

const ROLES = sql.raw(`ARRAY[${GROUP_ROLES.map((role) => `'${role}'`).join(', ')}]::group_role[]`);

/**
 * The reader's highest role as a rank (0 read_only … 3 proprietor), -1 with none: a contract's proprietor and a
 * super user (who holds every role) rank 3; a group they are only invited to does not count.
 */
const readerRank = (reader: NoticeReader) =>
  reader.isSuperUser
    ? sql`3`
    : sql`GREATEST(
  COALESCE((SELECT max(array_position(${ROLES}, ${memberships.role})) - 1 FROM ${memberships}
    WHERE ${memberships.accountId} = ${reader.accountId} AND ${acceptedMembership}), -1),
  CASE WHEN EXISTS (SELECT 1 FROM contract_proprietors p WHERE p.account_id = ${reader.accountId}) THEN 3 ELSE -1 END)`;

/**
 * Who sees a notice (part 3 §4): the poster screens every notice; a reader, super users included, only a
 * published one, between openAt and closeAt, whose range their highest role meets.
 */
const visibleTo = (reader: NoticeReader) =>
  reader.poster
    ? sql`TRUE`
    : sql`NOT n.is_draft AND n.open_at <= now() AND (n.close_at IS NULL OR n.close_at > now())
        AND array_position(${ROLES}, n.permission) - 1 <= ${readerRank(reader)}`;

const columns = (accountId: string) => sql`n.id, n.title, n.overview, n.body, n.open_at AS "openAt",
  n.close_at AS "closeAt", n.permission, n.is_draft AS "isDraft",
  (n.open_at > now() - make_interval(days => ${NEW_FOR_DAYS})) AS "isNew",
  EXISTS (SELECT 1 FROM notice_reads r WHERE r.notice_id = n.id AND r.account_id = ${accountId}) AS "isAlreadyRead"`;

export function createNoticeRepository(db: Db) {
  return {
    async list(reader: NoticeReader, page: { offset: number; limit: number; read?: 'READ' | 'UNREAD' }) {
      const read =
        page.read === undefined
          ? sql`TRUE`
          : sql`${page.read === 'READ' ? sql`` : sql`NOT`} EXISTS (SELECT 1 FROM notice_reads r WHERE r.notice_id = n.id AND r.account_id = ${reader.accountId})`;
      const { rows } = await db.execute<NoticeRow>(sql`
        SELECT ${columns(reader.accountId)}, count(*) OVER ()::int AS total
        FROM notices n WHERE ${visibleTo(reader)} AND ${read}
        ORDER BY n.open_at DESC, n.id DESC LIMIT ${page.limit} OFFSET ${page.offset}`);
      return rows;
    },

    async find(reader: NoticeReader, id: string): Promise<NoticeRow | undefined> {
      const { rows } = await db.execute<NoticeRow>(sql`
        SELECT ${columns(reader.accountId)} FROM notices n WHERE n.id = ${id} AND ${visibleTo(reader)}`);
      return rows[0];
    },

    async markRead(accountId: string, noticeId: string): Promise<void> {
      await db.execute(sql`INSERT INTO notice_reads (notice_id, account_id) VALUES (${noticeId}, ${accountId})
        ON CONFLICT DO NOTHING`);
    },

    async unreadCount(reader: NoticeReader): Promise<number> {
      const { rows } = await db.execute<{ count: number }>(sql`
        SELECT count(*)::int AS count FROM notices n WHERE ${visibleTo(reader)}
          AND NOT EXISTS (SELECT 1 FROM notice_reads r WHERE r.notice_id = n.id AND r.account_id = ${reader.accountId})`);
      return rows[0]?.count ?? 0;
    },

    async create(values: NoticeValues, authorAccountId: string): Promise<string> {
      const { rows } = await db.execute<{ id: string }>(sql`
        INSERT INTO notices (title, overview, body, open_at, close_at, permission, is_draft, author_account_id)
        VALUES (${values.title}, ${values.overview}, ${values.body}, ${values.openAt}, ${values.closeAt},
          ${values.permission}, ${values.isDraft}, ${authorAccountId})
        RETURNING id`);
      return rows[0]!.id;
    },

    async update(id: string, values: NoticeValues): Promise<boolean> {
      const { rows } = await db.execute<{ id: string }>(sql`
        UPDATE notices SET title = ${values.title}, overview = ${values.overview}, body = ${values.body},
          open_at = ${values.openAt}, close_at = ${values.closeAt}, permission = ${values.permission},
          is_draft = ${values.isDraft}, updated_at = now()
        WHERE id = ${id} RETURNING id`);
      return rows.length > 0;
    },

    async remove(id: string): Promise<boolean> {
      const { rows } = await db.execute<{ id: string }>(sql`DELETE FROM notices WHERE id = ${id} RETURNING id`);
      return rows.length > 0;
    },

    async addMedia(values: { blobKey: string; contentType: string; sizeBytes: number; accountId: string }) {
      const { rows } = await db.execute<{ id: string }>(sql`
        INSERT INTO notice_media (blob_key, content_type, size_bytes, uploaded_by_account_id)
        VALUES (${values.blobKey}, ${values.contentType}, ${values.sizeBytes}, ${values.accountId}) RETURNING id`);
      return rows[0]!.id;
    },

    async findMedia(id: string) {
      const { rows } = await db.execute<{ blobKey: string; contentType: string; sizeBytes: number }>(sql`
        SELECT blob_key AS "blobKey", content_type AS "contentType", size_bytes::int AS "sizeBytes"
        FROM notice_media WHERE id = ${id}`);
      return rows[0];
    },
  };
}

export type NoticeRepository = ReturnType<typeof createNoticeRepository>;
