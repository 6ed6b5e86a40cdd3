import { describe, expect, it } from 'vitest';
import { defaultNoticeForm, formToRequest, isBlankBody, noticeFormErrors, noticeToForm } from './notice-form.ts';
import { toUtcIsoSeconds } from '../../lib/format-date.ts';

describe('notice form', () => {
  const now = new Date(2026, 10, 25, 9, 7, 42);

  it('defaults to now, All (read_only) and Draft, and needs title, overview and body', () => {
    const values = defaultNoticeForm(now);
    expect(values).toMatchObject({ date: '2026-11-25', hour: 9, minute: 7, permission: 'read_only', draft: 'Draft' });
    expect(noticeFormErrors({ ...values, body: '<p></p><p>&nbsp;</p>' })).toEqual({
      title: 'Title is required',
      overview: 'Overview is required',
      body: 'Letter body is required',
    });
    expect(isBlankBody('<p><img src="/api/v1/notices/media/x"></p>')).toBe(false);
  });

  it('checks hours 0–23 and minutes 0–59, and the closing time as all three fields or none', () => {
    const values = { ...defaultNoticeForm(now), title: 't', overview: 'o', body: '<p>b</p>' };
    expect(noticeFormErrors({ ...values, hour: 24, minute: 60, date: '' })).toEqual({
      date: 'Date is required',
      hour: 'Hour is required',
      minute: 'Minute is required',
    });
    expect(noticeFormErrors({ ...values, closeDate: '2026-12-01' })).toEqual({
      closeHour: 'Hour is required',
      closeMinute: 'Minute is required',
    });
    expect(noticeFormErrors({ ...values, permission: null })).toEqual({ permission: 'Range control is required' });
  });

  it('sends local times as UTC ISO strings to the second and reads them back', () => {
    const values = {
      ...defaultNoticeForm(now),
      title: ' Maintenance ',
      overview: 'Down',
      body: '<p>b</p>',
      closeDate: '2026-11-26',
      closeHour: 18,
      closeMinute: 30,
      permission: 'member' as const,
      draft: 'Publishing' as const,
    };
    const request = formToRequest(values);
    expect(request).toMatchObject({ title: 'Maintenance', permission: 'member', isDraft: false });
    expect(request.openAt).toBe(toUtcIsoSeconds(new Date(2026, 10, 25, 9, 7, 0)));
    expect(request.closeAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:00Z$/);
    const back = noticeToForm({
      id: '0',
      isNew: false,
      isAlreadyRead: false,
      ...request,
      body: '<p>b</p>',
      closeAt: request.closeAt ?? null,
      isDraft: false,
    });
    expect(back).toMatchObject({
      date: '2026-11-25',
      hour: 9,
      minute: 7,
      closeDate: '2026-11-26',
      closeHour: 18,
      closeMinute: 30,
    });
  });
});
