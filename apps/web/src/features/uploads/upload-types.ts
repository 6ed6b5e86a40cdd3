import type { ImageUploadResponse, Organ, SpecimenType } from '@pathology/contract';

/** Part 1 §4: added (queued) → uploading → uploaded or upload_failed; retry goes back to uploading. */
export const UPLOAD_ITEM_STATUSES = ['added', 'uploading', 'uploaded', 'upload_failed'] as const;
export type UploadItemStatus = (typeof UPLOAD_ITEM_STATUSES)[number];

/** Which screen queued the file: each queue has its own concurrency (part 1 §9). */
export type UploadQueueName = 'dialog' | 'bulk' | 'case';

/**
 * Files sent at once per queue (part 1 §9: two in the list dialog, one for bulk and per-case uploads). Two bulk
 * files at once would overlap one file's final fsync with the next file's bytes (issue 30), but the spec keeps one.
 */
export const QUEUE_CONCURRENCY: Record<UploadQueueName, number> = { dialog: 2, bulk: 1, case: 1 };

/** What the uploader says about the slide, sent as the upload's metadata. */
export interface UploadMetadata {
  organ: Organ | null;
  specimenType: SpecimenType | null;
  modelName: string | null;
}

/** One file of the upload engine (part 1 §3 Upload item). */
export interface UploadItem extends UploadMetadata {
  id: string;
  queue: UploadQueueName;
  /** Epoch milliseconds. */
  addedAt: number;
  /** Null until the case is created (a new case number in the dialog or the bulk flow). */
  caseId: string | null;
  caseNumber: string;
  filename: string;
  displayName: string;
  size: number;
  status: UploadItemStatus;
  /** 0..1 */
  uploadProgress: number;
  /** Uploading, but the last request failed (server restarting, connection lost) and is tried again shortly. */
  reconnecting?: boolean;
  file: File;
  /** The spec's English text (or the server's message); the UI translates the known ones. */
  error?: string;
  /** The stored image (or attachment), once uploaded. */
  imageId?: string;
  /** Goes to the case's attachments, not its images (part 1 §3; a PDF always, a JPEG when chosen). */
  forceAttachment?: boolean;
  /** Goes in as an image although its type could be an attachment (a JPEG, a zip). */
  forceImage?: boolean;
}

/** What a screen hands to the engine. */
export type NewUploadItem = Pick<UploadItem, 'caseNumber' | 'filename' | 'displayName' | 'file'> &
  Partial<UploadMetadata> &
  Partial<Pick<UploadItem, 'forceAttachment' | 'forceImage'>> & { caseId: string | null };

/**
 * Sends one file; rejects with an Error whose message is already the user-facing text. `onReconnecting` says that a
 * request failed and will be tried again (the next progress means it resumed).
 */
export type UploadTransport = (
  item: UploadItem & { caseId: string },
  onProgress: (fraction: number) => void,
  signal: AbortSignal,
  onReconnecting?: () => void,
) => Promise<ImageUploadResponse>;

/** Runs before a file is sent, e.g. to create its case; returns the case id. */
export type ResolveCase = (item: UploadItem) => Promise<string>;

export type UploadEventType = 'upload_started' | 'upload_completed' | 'upload_failed';
export interface UploadEvent {
  type: UploadEventType;
  item: UploadItem;
}
