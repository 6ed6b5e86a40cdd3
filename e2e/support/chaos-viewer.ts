import type { Image, ImageSearchRequest, ImageSearchResponse } from '@pathology/contract';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { untilShown } from './chaos.ts';
import { zoomToFullResolution } from './viewer-zoom.ts';
import { waitForShell } from './shell.ts';
import { accessToken } from './sign-in.ts';

/** The images of a case through the API with the page's session, asked again while CHAOS fails it. */
export async function caseImages(page: Page, caseId: string): Promise<Image[]> {
  const request: ImageSearchRequest = {
    query: [{ field: 'caseId', operator: 'is', value: caseId }],
    order: { field: 'displayName', direction: 'asc' },
    page: 1,
    limit: 100,
  };
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const response = await page.request.post('/api/v1/images/search', {
      headers: { Authorization: `Bearer ${await accessToken(page)}` },
      data: request,
    });
    if (response.status() === 200) return ((await response.json()) as ImageSearchResponse).data;
    expect(response.status()).toBe(503);
  }
  throw new Error(`the images of case ${caseId} could not be read in 20 tries`);
}

/** A tile of the full-resolution level: its region is as wide as the size asked for (scale 1). */
export function isFullResolutionTile(pathname: string): boolean {
  const [region = '', size = ''] = pathname.split('/').slice(4, 6);
  return region.split(',')[2] === size.split(',')[0];
}

/** The navigator's box with a margin: its frame may settle a few pixels apart between two loads, so it is judged on its own. */
export async function navigatorBox(page: Page): Promise<{ x: number; y: number; width: number; height: number }[]> {
  const canvas = await page.getByTestId('viewer-canvas').boundingBox();
  const navigator = await page.getByTestId('viewer-canvas').locator('.navigator').boundingBox();
  const margin = 8;
  if (!canvas || !navigator) return [];
  return [
    {
      x: navigator.x - canvas.x - margin,
      y: navigator.y - canvas.y - margin,
      width: navigator.width + 2 * margin,
      height: navigator.height + 2 * margin,
    },
  ];
}

/**
 * Waits until the viewer shows the slide, its drawings and its detections panel have loaded and its top bar is whole
 * again (the case number and the image's place in the case), with no error state left, pressing Retry on each
 * meanwhile. Two pictures of the canvas are only comparable then: without the case number's line the bar is a
 * fraction of a pixel lower, and so the canvas a pixel taller; a failed load of the drawings lays its message over the
 * slide; the detections panel stays away until its summary arrives (tried again with waits growing to 30 s). Resolves
 * with the number of Retry presses.
 */
export async function untilViewerWhole(
  page: Page,
  caseNumber: string,
  onErrorState: () => Promise<unknown>,
): Promise<number> {
  const ready = page.locator('[data-testid="viewer-canvas"][data-state="ready"]');
  const number = page.getByTestId('viewer-case-number');
  const position = page.getByTestId('viewer-position');
  const drawingsPending = page.getByTestId('drawings-loading').or(page.getByTestId('drawings-load-error'));
  const detections = page.getByTestId('detection-panel-frame');
  const retry = page.getByRole('button', { name: /^(Retry|再試行)$/ });
  return untilShown(
    page,
    async () =>
      (await ready.count()) === 1 &&
      (await position.isVisible()) &&
      (await number.isVisible()) &&
      (await number.innerText()) === caseNumber &&
      (await drawingsPending.count()) === 0 &&
      (await detections.isVisible()) &&
      (await retry.count()) === 0,
    onErrorState,
  );
}

/**
 * Opens the page's viewer afresh (a reload: routing keeps the browser's cache out) and zooms it to full resolution
 * once its tiles have settled; the picture of its canvas.
 */
export async function reopenAtFullResolution(
  page: Page,
  caseNumber: string,
  tiles: { settled(quietMs?: number): Promise<void> },
): Promise<Buffer> {
  await page.reload();
  await waitForShell(page);
  await untilViewerWhole(page, caseNumber, async () => undefined);
  await zoomToFullResolution(page, page.getByTestId('zoom-text'));
  await tiles.settled(5_000);
  if ((await untilViewerWhole(page, caseNumber, async () => undefined)) > 0) await tiles.settled(5_000);
  return page.getByTestId('viewer-canvas').screenshot({ animations: 'disabled' });
}
