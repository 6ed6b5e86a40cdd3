import { z } from 'zod';
import { GroupRoleSchema } from '../domain/roles.ts';

/** Part 3 §5 "Notice range control options": who a notice reaches, by the reader's highest role. */
export const NOTICE_RANGES = [
  { label: 'All', value: 'read_only' },
  { label: 'Member or higher', value: 'member' },
  { label: 'Admin or higher', value: 'administrator' },
  { label: 'Proprietor only', value: 'proprietor' },
] as const;

/** A notice and a mention count as NEW for this long after they open (part 3 §4, §9). */
export const NEW_FOR_DAYS = 3;

/** Messages of the notice form (part 3 §5) and calls (§8). */
export const NOTICE_MESSAGES = {
  titleRequired: 'Title is required',
  overviewRequired: 'Overview is required',
  bodyRequired: 'Letter body is required',
  dateRequired: 'Date is required',
  hourRequired: 'Hour is required',
  minuteRequired: 'Minute is required',
  rangeRequired: 'Range control is required',
  closeBeforeOpen: 'The closing time must be after the post time',
  created: 'Notice successfully created.',
  updated: 'Notice successfully updated.',
  createFailed: 'Unable to create a notice.',
  updateFailed: 'Unable to update a notice.',
  deleteFailed: 'Unable to delete the notice.',
  listFailed: 'Unable to load the list of Notifications',
  mentionsFailed: 'Unable to load the list of Mentions',
} as const;

export const NoticeSchema = z.object({
  id: z.uuid(),
  title: z.string(),
  overview: z.string(),
  /** Sanitised HTML. */
  body: z.string(),
  openAt: z.iso.datetime(),
  closeAt: z.iso.datetime().nullable(),
  permission: GroupRoleSchema,
  isDraft: z.boolean(),
  isNew: z.boolean(),
  isAlreadyRead: z.boolean(),
});
export type Notice = z.infer<typeof NoticeSchema>;

export const NoticeListSchema = z.object({ data: z.array(NoticeSchema), total: z.number().int() });
export type NoticeList = z.infer<typeof NoticeListSchema>;

export const NoticeListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(10),
  /** READ or UNREAD; absent for all. */
  read: z.enum(['READ', 'UNREAD']).optional(),
});

/** POST notices/posts and POST notices/posts/{id}: dates as UTC ISO strings to the second. */
export const NoticeRequestSchema = z
  .object({
    title: z.string().trim().min(1, NOTICE_MESSAGES.titleRequired).max(200),
    overview: z.string().trim().min(1, NOTICE_MESSAGES.overviewRequired).max(2000),
    body: z.string().min(1, NOTICE_MESSAGES.bodyRequired).max(1_000_000),
    openAt: z.iso.datetime({ message: NOTICE_MESSAGES.dateRequired }),
    closeAt: z.iso.datetime().nullable().default(null),
    permission: GroupRoleSchema,
    isDraft: z.boolean(),
  })
  .refine((notice) => notice.closeAt === null || notice.closeAt > notice.openAt, {
    message: NOTICE_MESSAGES.closeBeforeOpen,
    path: ['closeAt'],
  });
export type NoticeRequest = z.input<typeof NoticeRequestSchema>;

export const NoticeBadgeSchema = z.object({
  hasNewMention: z.boolean(),
  unreadNoticeCount: z.number().int().nonnegative(),
});
export type NoticeBadge = z.infer<typeof NoticeBadgeSchema>;

export const NoticeMediaSchema = z.object({ id: z.uuid(), url: z.string() });

export const MentionSchema = z.object({
  id: z.uuid(),
  createdAt: z.iso.datetime(),
  caseId: z.uuid(),
  imageId: z.uuid().nullable(),
  label: z.string(),
  message: z.string(),
  authorName: z.string().nullable(),
  isNew: z.boolean(),
});
export type Mention = z.infer<typeof MentionSchema>;

export const MentionListSchema = z.object({ data: z.array(MentionSchema), next: z.string().nullable() });
export type MentionList = z.infer<typeof MentionListSchema>;

export const MentionListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(50).default(10),
  next: z.string().optional(),
});
