/** Part 2 §9: the PDF viewer is 1200 px high; at zoom 1 ("fit") a page fills that height. */
export const PDF_VIEWER_HEIGHT = 1200;
export const ZOOM_STEPS: readonly number[] = [0.5, 0.75, 1, 1.25, 1.5, 2, 3];
const MIN_ZOOM = 0.5;
const MAX_ZOOM = 3;
export const FIT_ZOOM = 1;

/** The next zoom step above (`direction` 1) or below (-1) the current zoom, staying within the steps. */
export function stepZoom(current: number, direction: 1 | -1): number {
  if (direction === 1) return ZOOM_STEPS.find((step) => step > current + 1e-9) ?? MAX_ZOOM;
  return [...ZOOM_STEPS].reverse().find((step) => step < current - 1e-9) ?? MIN_ZOOM;
}

export function canZoom(current: number, direction: 1 | -1): boolean {
  return direction === 1 ? current < MAX_ZOOM : current > MIN_ZOOM;
}

/** A page number kept within 1 … pages. */
export function clampPage(page: number, pages: number): number {
  if (pages < 1) return 1;
  return Math.min(Math.max(1, Math.round(page)), pages);
}
