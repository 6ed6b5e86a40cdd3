import type { ImageStatus } from '@pathology/contract';

export interface ConvertingImage {
  status: ImageStatus;
  viewable: boolean;
  conversionProgress: number | null;
}

/** Still converting but already opened from its original: a status of its own, not 'queued' or 'processing'. */
export function viewableWhileConverting(image: ConvertingImage): boolean {
  return image.viewable && (image.status === 'uploaded' || image.status === 'processing');
}
