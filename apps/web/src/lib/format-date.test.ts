import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, toUtcIsoSeconds } from './format-date.ts';

// Dates are built from local components so the expectations hold in any time zone the tests run in.
describe('formatDateTime', () => {
  it("formats as 'yyyy-MM-dd HH:mm' with zero padding", () => {
    expect(formatDateTime(new Date(2024, 0, 5, 9, 7, 59))).toBe('2024-01-05 09:07');
  });

  it('uses a 24-hour clock', () => {
    expect(formatDateTime(new Date(2023, 11, 31, 23, 59))).toBe('2023-12-31 23:59');
    expect(formatDateTime(new Date(2023, 11, 31, 0, 0))).toBe('2023-12-31 00:00');
  });

  it('accepts ISO strings and epoch milliseconds', () => {
    const local = new Date(2025, 6, 14, 18, 30);
    expect(formatDateTime(local.toISOString())).toBe('2025-07-14 18:30');
    expect(formatDateTime(local.getTime())).toBe('2025-07-14 18:30');
  });

  it('returns an empty string for missing or invalid input', () => {
    expect(formatDateTime(null)).toBe('');
    expect(formatDateTime(undefined)).toBe('');
    expect(formatDateTime('')).toBe('');
    expect(formatDateTime('not a date')).toBe('');
    expect(formatDateTime(new Date(Number.NaN))).toBe('');
  });
});

describe('formatDate', () => {
  it("formats as 'yyyy-MM-dd'", () => {
    expect(formatDate(new Date(2024, 1, 29, 23, 59))).toBe('2024-02-29');
  });

  it('pads years below 1000 to four digits', () => {
    const date = new Date(2000, 0, 1);
    date.setFullYear(987);
    expect(formatDate(date)).toBe('0987-01-01');
  });
});

describe('toUtcIsoSeconds', () => {
  it('drops the milliseconds', () => {
    expect(toUtcIsoSeconds(new Date(Date.UTC(2026, 10, 25, 0, 7, 0, 450)))).toBe('2026-11-25T00:07:00Z');
  });
});
