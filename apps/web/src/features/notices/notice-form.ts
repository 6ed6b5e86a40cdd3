import { NOTICE_MESSAGES, type GroupRole, type Notice, type NoticeRequest } from '@pathology/contract';
import { formatDate } from '../../lib/format-date.ts';
import { toUtcIsoSeconds } from '../../lib/format-date.ts';

/** The notice form of part 3 §3/§5: dates and times as the poster types them, in local time. */
export interface NoticeFormValues {
  title: string;
  overview: string;
  body: string;
  /** yyyy-MM-dd */
  date: string;
  hour: number | '';
  minute: number | '';
  closeDate: string;
  closeHour: number | '';
  closeMinute: number | '';
  permission: GroupRole | null;
  draft: 'Draft' | 'Publishing';
}

export type NoticeFormErrors = Partial<Record<keyof NoticeFormValues, string>>;

/** Defaults: now, read_only (All), Draft. */
export function defaultNoticeForm(now = new Date()): NoticeFormValues {
  return {
    title: '',
    overview: '',
    body: '',
    date: formatDate(now),
    hour: now.getHours(),
    minute: now.getMinutes(),
    closeDate: '',
    closeHour: '',
    closeMinute: '',
    permission: 'read_only',
    draft: 'Draft',
  };
}

export function noticeToForm(notice: Notice): NoticeFormValues {
  const open = new Date(notice.openAt);
  const close = notice.closeAt ? new Date(notice.closeAt) : null;
  return {
    title: notice.title,
    overview: notice.overview,
    body: notice.body,
    date: formatDate(open),
    hour: open.getHours(),
    minute: open.getMinutes(),
    closeDate: close ? formatDate(close) : '',
    closeHour: close ? close.getHours() : '',
    closeMinute: close ? close.getMinutes() : '',
    permission: notice.permission,
    draft: notice.isDraft ? 'Draft' : 'Publishing',
  };
}

/** An editor holding only empty paragraphs is blank (part 3 §5); a picture alone is not. */
export function isBlankBody(html: string): boolean {
  if (/<img\b/i.test(html)) return false;
  return (
    html
      .replace(/<[^>]*>/g, '')
      .replace(/&nbsp;/g, ' ')
      .trim() === ''
  );
}

const inRange = (value: number | '', max: number) =>
  value !== '' && Number.isInteger(value) && value >= 0 && value <= max;

/** The spec's messages for what is missing or out of range; the closing time is all three fields or none. */
export function noticeFormErrors(values: NoticeFormValues): NoticeFormErrors {
  const errors: NoticeFormErrors = {};
  if (!values.title.trim()) errors.title = NOTICE_MESSAGES.titleRequired;
  if (!values.overview.trim()) errors.overview = NOTICE_MESSAGES.overviewRequired;
  if (isBlankBody(values.body)) errors.body = NOTICE_MESSAGES.bodyRequired;
  if (!values.date) errors.date = NOTICE_MESSAGES.dateRequired;
  if (!inRange(values.hour, 23)) errors.hour = NOTICE_MESSAGES.hourRequired;
  if (!inRange(values.minute, 59)) errors.minute = NOTICE_MESSAGES.minuteRequired;
  const closing = [values.closeDate, values.closeHour, values.closeMinute].some((value) => value !== '');
  if (closing) {
    if (!values.closeDate) errors.closeDate = NOTICE_MESSAGES.dateRequired;
    if (!inRange(values.closeHour, 23)) errors.closeHour = NOTICE_MESSAGES.hourRequired;
    if (!inRange(values.closeMinute, 59)) errors.closeMinute = NOTICE_MESSAGES.minuteRequired;
  }
  if (!values.permission) errors.permission = NOTICE_MESSAGES.rangeRequired;
  return errors;
}

/** A local date and time as a UTC ISO string to the second (part 3 §5). */
function utcIso(date: string, hour: number, minute: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return toUtcIsoSeconds(new Date(year, month - 1, day, hour, minute, 0));
}

export function formToRequest(values: NoticeFormValues): NoticeRequest {
  const closes = values.closeDate !== '' && values.closeHour !== '' && values.closeMinute !== '';
  return {
    title: values.title.trim(),
    overview: values.overview.trim(),
    body: values.body,
    openAt: utcIso(values.date, Number(values.hour), Number(values.minute)),
    closeAt: closes ? utcIso(values.closeDate, Number(values.closeHour), Number(values.closeMinute)) : null,
    permission: values.permission ?? 'read_only',
    isDraft: values.draft === 'Draft',
  };
}
