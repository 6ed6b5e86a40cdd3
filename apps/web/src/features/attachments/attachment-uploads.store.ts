import type { Attachment } from '@pathology/contract';
import { useSyncExternalStore } from 'react';
import i18n from '../../i18n/index.ts';
import { uploadAttachment } from './upload-attachment.ts';

/** An attachment on its way to the server: a row of the table with a progress bar (part 2 §3, §4). */
export interface AttachmentUpload {
  id: string;
  caseId: string;
  filename: string;
  size: number;
  /** 0 to 1. */
  progress: number;
  abort: () => void;
}

export interface UploadCallbacks {
  onComplete: (attachment: Attachment) => void;
  onError: (error: unknown, upload: AttachmentUpload) => void;
}

/**
 * Uploads in progress, kept outside React so they survive switching tabs; while any runs, leaving the page asks
 * for confirmation (the browser shows its own wording for beforeunload).
 */
class AttachmentUploadStore {
  private uploads: readonly AttachmentUpload[] = [];
  private readonly listeners = new Set<() => void>();
  private sequence = 0;

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  snapshot = () => this.uploads;

  start(caseId: string, file: File, callbacks: UploadCallbacks): void {
    this.sequence += 1;
    const id = `attachment-upload-${this.sequence}`;
    const handle = uploadAttachment(caseId, file, (progress) => this.update(id, { progress }));
    const upload: AttachmentUpload = {
      id,
      caseId,
      filename: file.name,
      size: file.size,
      progress: 0,
      abort: handle.abort,
    };
    this.set([...this.uploads, upload]);
    handle.done.then(
      (attachment) => {
        callbacks.onComplete(attachment);
        this.remove(id);
      },
      (error: unknown) => {
        // On error the entry goes (part 2 §4); the toast says why.
        this.remove(id);
        callbacks.onError(error, upload);
      },
    );
  }

  private update(id: string, changes: Partial<AttachmentUpload>): void {
    this.set(this.uploads.map((upload) => (upload.id === id ? { ...upload, ...changes } : upload)));
  }

  private remove(id: string): void {
    this.set(this.uploads.filter((upload) => upload.id !== id));
  }

  private set(uploads: readonly AttachmentUpload[]): void {
    const wasBusy = this.uploads.length > 0;
    this.uploads = uploads;
    const busy = uploads.length > 0;
    if (busy !== wasBusy && typeof window !== 'undefined') {
      if (busy) window.addEventListener('beforeunload', confirmLeaving);
      else window.removeEventListener('beforeunload', confirmLeaving);
    }
    for (const listener of this.listeners) listener();
  }
}

/** Part 2 §4: 'Are you sure you want to abort the image upload? …'. Current browsers show their own text instead. */
function confirmLeaving(event: BeforeUnloadEvent): string {
  const message = i18n.t('attachments.leaveWhileUploading');
  event.preventDefault();
  // Older browsers read the message from returnValue.
  event.returnValue = message;
  return message;
}

export const attachmentUploads = new AttachmentUploadStore();

const EMPTY: readonly AttachmentUpload[] = [];

/** The uploads in progress for one case. */
export function useAttachmentUploads(caseId: string): readonly AttachmentUpload[] {
  const all = useSyncExternalStore(attachmentUploads.subscribe, attachmentUploads.snapshot);
  const mine = all.filter((upload) => upload.caseId === caseId);
  return mine.length === 0 ? EMPTY : mine;
}
