import type { UploadItem } from './upload-types.ts';

/**
 * Where an uploaded slide opens: the viewer of the user's preferred version (through its redirect), which shows the
 * slide at once when it is served from its original and waits for its conversion otherwise. None for an attachment.
 */
export function uploadedSlidePath(
  item: Pick<UploadItem, 'status' | 'caseId' | 'imageId' | 'forceAttachment'>,
): string | undefined {
  if (item.status !== 'uploaded' || item.caseId == null || item.imageId == null || item.forceAttachment) return undefined;
  return `/cases/${encodeURIComponent(item.caseId)}/viewer/${encodeURIComponent(item.imageId)}`;
}
