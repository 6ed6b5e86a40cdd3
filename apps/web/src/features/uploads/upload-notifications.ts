import { useSyncExternalStore } from 'react';
import type { UploadEvent, UploadEventType } from './upload-types.ts';

/** Part 1 §9: the upload history keeps the latest 50. */
export const MAX_UPLOAD_NOTIFICATIONS = 50;
/** Part 1 §8: a success toast stays 5 s, and at most one shows per 5 s. */
export const UPLOAD_TOAST_MS = 5000;

/** Part 1 §3 Upload notification, with when it happened. */
export interface UploadNotification {
  id: string;
  type: UploadEventType;
  caseId: string | null;
  caseNumber: string;
  filename: string;
  error?: string;
  /** Epoch milliseconds. */
  at: number;
}

export interface NotificationHistory {
  add: (event: UploadEvent) => UploadNotification;
  getAll: () => readonly UploadNotification[];
  clear: () => void;
  subscribe: (listener: () => void) => () => void;
}

/** Newest first, at most `cap` entries. */
export function createNotificationHistory(cap = MAX_UPLOAD_NOTIFICATIONS, now: () => number = Date.now) {
  let entries: readonly UploadNotification[] = [];
  let sequence = 0;
  const listeners = new Set<() => void>();
  const changed = (next: readonly UploadNotification[]) => {
    entries = next;
    for (const listener of listeners) listener();
  };
  const history: NotificationHistory = {
    add({ type, item }) {
      const entry: UploadNotification = {
        id: `n${sequence++}`,
        type,
        caseId: item.caseId,
        caseNumber: item.caseNumber,
        filename: item.filename,
        error: item.error,
        at: now(),
      };
      changed([entry, ...entries].slice(0, cap));
      return entry;
    },
    getAll: () => entries,
    clear: () => changed([]),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return history;
}

/** True at most once per `intervalMs`: the success toasts of a batch do not pile up. */
export function createThrottle(intervalMs = UPLOAD_TOAST_MS, now: () => number = Date.now): () => boolean {
  let last = Number.NEGATIVE_INFINITY;
  return () => {
    const time = now();
    if (time - last < intervalMs) return false;
    last = time;
    return true;
  };
}

export function useNotificationHistory(history: NotificationHistory): readonly UploadNotification[] {
  return useSyncExternalStore(history.subscribe, history.getAll, history.getAll);
}
