/**
 * Date display in the spec's formats ('yyyy-MM-dd HH:mm', 'yyyy-MM-dd'), in the browser's time zone.
 * Hand-written because the format is fixed and tiny; swap for date-fns `format` if it gets added.
 */

export type DateInput = Date | string | number;

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

function toValidDate(value: DateInput | null | undefined): Date | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** 'yyyy-MM-dd'; an empty string for missing or unparsable input, so tables show a blank cell. */
export function formatDate(value: DateInput | null | undefined): string {
  const date = toValidDate(value);
  if (!date) return '';
  return `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** 'yyyy-MM-dd HH:mm' (24-hour clock); an empty string for missing or unparsable input. */
export function formatDateTime(value: DateInput | null | undefined): string {
  const date = toValidDate(value);
  if (!date) return '';
  return `${formatDate(date)} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A moment as a UTC ISO string to the second, as the API takes dates (part 3 §5): 2026-11-25T00:07:00Z. */
export function toUtcIsoSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
