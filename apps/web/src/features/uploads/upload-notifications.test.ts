import { describe, expect, it } from 'vitest';
import { createNotificationHistory, createThrottle } from './upload-notifications.ts';
import type { UploadItem } from './upload-types.ts';

const item = (filename: string) => ({ filename, caseId: 'c', caseNumber: 'C-1' }) as UploadItem;

describe('upload notification history', () => {
  it('keeps the newest 50, newest first', () => {
    const history = createNotificationHistory();
    for (let index = 0; index < 60; index++) history.add({ type: 'upload_completed', item: item(`f${index}`) });
    const entries = history.getAll();
    expect(entries).toHaveLength(50);
    expect(entries[0]?.filename).toBe('f59');
    expect(entries[49]?.filename).toBe('f10');
  });

  it('keeps the error of a failure', () => {
    const history = createNotificationHistory();
    history.add({ type: 'upload_failed', item: { ...item('a.svs'), error: 'Duplicate file' } });
    expect(history.getAll()[0]).toMatchObject({ type: 'upload_failed', filename: 'a.svs', error: 'Duplicate file' });
  });
});

describe('success toast throttle', () => {
  it('allows one toast per 5 seconds', () => {
    let time = 1_000;
    const allowed = createThrottle(5000, () => time);
    expect(allowed()).toBe(true);
    time += 4999;
    expect(allowed()).toBe(false);
    time += 1;
    expect(allowed()).toBe(true);
    expect(allowed()).toBe(false);
  });
});
