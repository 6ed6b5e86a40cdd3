import {
  MentionListSchema,
  NoticeBadgeSchema,
  NoticeListSchema,
  NoticeMediaSchema,
  NoticeSchema,
  type NoticeRequest,
} from '@pathology/contract';
import { keepPreviousData, useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';

export const NOTICE_PAGE_SIZE = 10;

export type ReadFilter = 'ALL' | 'UNREAD' | 'READ';

export const noticeQueryKeys = {
  all: ['notices'] as const,
  badges: () => [...noticeQueryKeys.all, 'badges'] as const,
  list: (scope: 'reader' | 'posts', page: number, limit: number, read: ReadFilter) =>
    [...noticeQueryKeys.all, scope, page, limit, read] as const,
  one: (scope: 'reader' | 'posts', id: string) => [...noticeQueryKeys.all, scope, 'one', id] as const,
  mentions: () => ['mentions'] as const,
};

/** Part 3 §9: the bell's badge is asked again every 180,000 ms. */
export const NOTICE_BADGE_REFRESH_MS = 180_000;

/**
 * The bell's badge: asked on loading, on returning to the page, every {@link NOTICE_BADGE_REFRESH_MS} and at once after
 * reading. A background call, so a poll that meets an expired session leaves its "sign in again" notice in place.
 */
export function useNoticeBadges(enabled = true) {
  return useQuery({
    queryKey: noticeQueryKeys.badges(),
    queryFn: ({ signal }) => api.get('/notices/badges', { signal, schema: NoticeBadgeSchema, background: true }),
    enabled,
    refetchInterval: NOTICE_BADGE_REFRESH_MS,
  });
}

/** GET notices (reader) or notices/posts (poster), a page at a time. */
export function useNotices(
  scope: 'reader' | 'posts',
  page: number,
  read: ReadFilter = 'ALL',
  limit = NOTICE_PAGE_SIZE,
  enabled = true,
) {
  return useQuery({
    enabled,
    queryKey: noticeQueryKeys.list(scope, page, limit, read),
    queryFn: ({ signal }) => {
      const query = new URLSearchParams({ page: String(page), limit: String(limit) });
      if (read !== 'ALL') query.set('read', read);
      return api.get(`/notices${scope === 'posts' ? '/posts' : ''}?${query}`, { signal, schema: NoticeListSchema });
    },
    placeholderData: keepPreviousData,
  });
}

export function useNotice(scope: 'reader' | 'posts', id: string) {
  return useQuery({
    queryKey: noticeQueryKeys.one(scope, id),
    queryFn: ({ signal }) =>
      api.get(`/notices/${scope === 'posts' ? 'posts/' : ''}${encodeURIComponent(id)}`, {
        signal,
        schema: NoticeSchema,
      }),
    retry: false,
  });
}

/** Marks a notice read, then refreshes the badge and the lists at once. */
export function useReadNotice() {
  const queryClient = useQueryClient();
  return async (id: string) => {
    await api.post(`/notices/read/${encodeURIComponent(id)}`, undefined, { schema: NoticeSchema });
    await queryClient.invalidateQueries({ queryKey: noticeQueryKeys.all });
  };
}

export function saveNotice(id: string | null, body: NoticeRequest) {
  return api.post(`/notices/posts${id ? `/${encodeURIComponent(id)}` : ''}`, body, { schema: NoticeSchema });
}

export function deleteNotice(id: string) {
  return api.delete(`/notices/posts/${encodeURIComponent(id)}`);
}

/** Uploads a picture for the editor; its address replaces it in the body. */
export async function uploadNoticePicture(file: File): Promise<string> {
  const stored = await api.post('/notices/media', file, {
    schema: NoticeMediaSchema,
    contentType: file.type || 'application/octet-stream',
  });
  return stored.url;
}

/** GET mentions, ten at a time, each page continuing from the last one's cursor. */
export function useMentions(limit = NOTICE_PAGE_SIZE, enabled = true) {
  return useInfiniteQuery({
    enabled,
    queryKey: [...noticeQueryKeys.mentions(), limit],
    queryFn: ({ signal, pageParam }) => {
      const query = new URLSearchParams({ limit: String(limit) });
      if (pageParam) query.set('next', pageParam);
      return api.get(`/mentions?${query}`, { signal, schema: MentionListSchema });
    },
    initialPageParam: '',
    getNextPageParam: (last) => last.next ?? undefined,
  });
}
