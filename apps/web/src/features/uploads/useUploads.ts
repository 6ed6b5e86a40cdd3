import { useSyncExternalStore } from 'react';
import { uploadEngine, uploadHistory } from './upload-service.ts';
import { useNotificationHistory, type UploadNotification } from './upload-notifications.ts';
import type { UploadItem } from './upload-types.ts';

/** Every upload item of this browser, in the order queued. */
export function useUploadItems(): readonly UploadItem[] {
  return useSyncExternalStore(uploadEngine.subscribe, uploadEngine.getItems, uploadEngine.getItems);
}

export function useUploadHistory(): readonly UploadNotification[] {
  return useNotificationHistory(uploadHistory);
}
