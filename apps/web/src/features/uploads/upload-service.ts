import { notifications } from '@mantine/notifications';
import i18n from '../../i18n/index.ts';
import { createUploadEngine } from './upload-engine.ts';
import { completedToastMessage } from './upload-toast.tsx';
import { createNotificationHistory, createThrottle, UPLOAD_TOAST_MS } from './upload-notifications.ts';
import { translateUploadError } from './upload-error-text.ts';
import { uploadQueue } from './upload-queue.store.ts';
import { uploadTransport } from './upload-transport.ts';
import type { UploadEvent } from './upload-types.ts';

/** The browser's one upload engine: every screen queues here, so uploads survive moving between pages. */
export const uploadEngine = createUploadEngine({
  transport: uploadTransport,
  onActiveCountChange: (count) => uploadQueue.set(count),
});

export const uploadHistory = createNotificationHistory();

const successToastAllowed = createThrottle(UPLOAD_TOAST_MS);

/** Success: one toast per 5 s at most; failure: always, with the reason. Both stay in the history. */
export function announce(event: UploadEvent): void {
  uploadHistory.add(event);
  const { item } = event;
  const t = i18n.t.bind(i18n);
  if (event.type === 'upload_completed' && successToastAllowed()) {
    const id = notifications.show({
      color: 'teal',
      autoClose: UPLOAD_TOAST_MS,
      title: t('uploads.toast.completedTitle'),
      message: completedToastMessage(item, () => notifications.hide(id)),
    });
  }
  if (event.type === 'upload_failed') {
    notifications.show({
      color: 'red',
      autoClose: false,
      title: t('uploads.toast.failedTitle'),
      message: t('uploads.toast.failed', { filename: item.filename, message: translateUploadError(t, item.error) }),
    });
  }
}

uploadEngine.onEvent(announce);

// Closing or reloading the tab would abort running uploads: the browser asks first (part 2 §4).
if (typeof window !== 'undefined') {
  window.addEventListener('beforeunload', (event) => {
    if (uploadEngine.activeCount() === 0) return;
    event.preventDefault();
    // Browsers show their own wording; older ones show this text.
    event.returnValue = i18n.t('uploads.leaveConfirm');
  });
}

/** Asks before an action that would abort running uploads; true when the user agrees. */
export function confirmAbortUploads(): boolean {
  return uploadEngine.activeCount() === 0 || window.confirm(i18n.t('uploads.leaveConfirm'));
}
