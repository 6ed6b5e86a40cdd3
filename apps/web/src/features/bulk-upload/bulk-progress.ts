import type { UploadItem } from '../uploads/upload-types.ts';

/**
 * The batch's overall progress, 0 to 1, weighted by size: a 2 GB slide half sent counts for more than a
 * thumbnail-sized file done, so the bar moves as the bytes do.
 */
export function overallProgress(items: readonly Pick<UploadItem, 'size' | 'uploadProgress' | 'status'>[]): number {
  const total = items.reduce((sum, item) => sum + item.size, 0);
  if (total === 0) return items.length > 0 && items.every((item) => item.status === 'uploaded') ? 1 : 0;
  return items.reduce((sum, item) => sum + item.size * item.uploadProgress, 0) / total;
}
