import type { Image } from '@pathology/contract';
import type { ViewerVersion } from './viewer-preferences.ts';

const segment = encodeURIComponent;

/**
 * Where a viewer version lives: v2 at /cases/{caseId}/images/{imageId}, the classic v1 at …/{imageId}/v1. `search`
 * (the case-navigation parameters the images tab passes on) is kept so the way back still knows the case list.
 */
export function viewerPath(caseId: string, imageId: string, version: ViewerVersion, search = ''): string {
  const base = `/cases/${segment(caseId)}/images/${segment(imageId)}`;
  return `${version === 'v1' ? `${base}/v1` : base}${search}`;
}

/** The images tab of the case, with the case-navigation parameters it was left with. */
export function caseImagesPath(caseId: string, search = ''): string {
  return `/cases/${segment(caseId)}/images${search}`;
}

export interface ImageNeighbours<T> {
  previous?: T;
  next?: T;
  /** 1-based position among the viewable images; 0 when the image is not among them. */
  position: number;
  total: number;
}

/**
 * Previous and next viewable images of the case (available, or still converting and served from the original) in
 * the list's order (display name ascending).
 * No wrap-around: the first image has no previous and the last no next, so the buttons are disabled at the ends.
 */
export function imageNeighbours<T extends Pick<Image, 'id' | 'viewable'>>(
  images: readonly T[],
  imageId: string,
): ImageNeighbours<T> {
  const viewable = images.filter((image) => image.viewable);
  const index = viewable.findIndex((image) => image.id === imageId);
  if (index < 0) return { position: 0, total: viewable.length };
  return { previous: viewable[index - 1], next: viewable[index + 1], position: index + 1, total: viewable.length };
}
