import {
  NEW_FOR_DAYS,
  NOTICE_MESSAGES,
  type Notice,
  type NoticeBadge,
  type NoticeList,
  type NoticeListQuerySchema,
  type NoticeRequestSchema,
} from '@pathology/contract';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Caller } from '../../auth/caller.ts';
import type { CapabilitiesService } from '../../auth/capabilities/index.ts';
import type { Db } from '../../db/client.ts';
import { HttpError } from '../../http/http-error.ts';
import { isUuid } from '../../http/ids.ts';
import { isBlankNotice, sanitizeNoticeHtml } from './notice-html.ts';
import type { NoticeReader, NoticeRepository, NoticeValues } from './notice.repository.ts';

type ListQuery = z.output<typeof NoticeListQuerySchema>;
type NoticeInput = z.output<typeof NoticeRequestSchema>;

interface Deps {
  db: Db;
  notices: NoticeRepository;
  capabilities: Pick<CapabilitiesService, 'requireRoleCheck'>;
}

type Row = NonNullable<Awaited<ReturnType<NoticeRepository['find']>>>;

function toNotice({ total: _total, ...row }: Row & { total?: number }): Notice {
  return {
    ...row,
    openAt: new Date(row.openAt).toISOString(),
    closeAt: row.closeAt === null ? null : new Date(row.closeAt).toISOString(),
  };
}

/** The body as stored: sanitised, and refused when nothing is left of it. */
function valuesOf(input: NoticeInput): NoticeValues {
  const body = sanitizeNoticeHtml(input.body);
  if (isBlankNotice(body)) throw HttpError.validation({ body: NOTICE_MESSAGES.bodyRequired });
  return { ...input, body, openAt: new Date(input.openAt), closeAt: input.closeAt ? new Date(input.closeAt) : null };
}

/**
 * Notices (part 3 §7): readers, super users too, see what reaches them (notice.repository's rule) and mark it
 * read; only super users post, edit and delete, and see every notice (drafts, closed, future) on the poster screens.
 */
export function createNoticeService({ db, notices, capabilities }: Deps) {
  const reader = (caller: Caller): NoticeReader => ({
    accountId: caller.accountId,
    isSuperUser: caller.isSuperUser,
    poster: false,
  });
  const posterView = (caller: Caller): NoticeReader => ({ ...reader(caller), poster: true });
  const poster = (caller: Caller) => capabilities.requireRoleCheck(caller, 'isSuperUser');

  async function visible(as: NoticeReader, id: string): Promise<Row> {
    const row = isUuid(id) ? await notices.find(as, id) : undefined;
    if (!row) throw HttpError.notFound();
    return row;
  }

  async function list(as: NoticeReader, query: ListQuery): Promise<NoticeList> {
    const rows = await notices.list(as, {
      offset: (query.page - 1) * query.limit,
      limit: query.limit,
      read: query.read,
    });
    return { data: rows.map(toNotice), total: rows[0]?.total ?? 0 };
  }

  return {
    list: (caller: Caller, query: ListQuery) => list(reader(caller), query),
    get: async (caller: Caller, id: string) => toNotice(await visible(reader(caller), id)),

    async read(caller: Caller, id: string): Promise<Notice> {
      const row = await visible(reader(caller), id);
      await notices.markRead(caller.accountId, row.id);
      return toNotice({ ...row, isAlreadyRead: true });
    },

    async badges(caller: Caller): Promise<NoticeBadge> {
      const { rows } = await db.execute<{ fresh: boolean }>(sql`
        SELECT EXISTS (SELECT 1 FROM mentions WHERE mentioned_account_id = ${caller.accountId}
          AND created_at > now() - make_interval(days => ${NEW_FOR_DAYS})) AS fresh`);
      return { hasNewMention: rows[0]?.fresh ?? false, unreadNoticeCount: await notices.unreadCount(reader(caller)) };
    },

    async posts(caller: Caller, query: ListQuery): Promise<NoticeList> {
      await poster(caller);
      return list(posterView(caller), query);
    },

    async post(caller: Caller, id: string): Promise<Notice> {
      await poster(caller);
      return toNotice(await visible(posterView(caller), id));
    },

    async create(caller: Caller, input: NoticeInput): Promise<Notice> {
      await poster(caller);
      const id = await notices.create(valuesOf(input), caller.accountId);
      return toNotice(await visible(posterView(caller), id));
    },

    async update(caller: Caller, id: string, input: NoticeInput): Promise<Notice> {
      await poster(caller);
      if (!isUuid(id) || !(await notices.update(id, valuesOf(input)))) throw HttpError.notFound();
      return toNotice(await visible(posterView(caller), id));
    },

    async remove(caller: Caller, id: string): Promise<void> {
      await poster(caller);
      if (!isUuid(id) || !(await notices.remove(id))) throw HttpError.notFound();
    },
  };
}

export type NoticeService = ReturnType<typeof createNoticeService>;
