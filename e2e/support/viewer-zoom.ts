import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/** The number the viewer's zoom text shows ('×5.7' → 5.7). */
export function zoomValue(text: string): number {
  return Number(text.replace(/^×/, ''));
}

/**
 * Zooms in with the toolbar button, one step at a time (each animates to the next objective step: ×10, ×20, …),
 * until full resolution (×20 on a ×20 scan).
 */
export async function zoomToFullResolution(page: Page, zoomText: Locator): Promise<void> {
  const zoomIn = page.getByRole('button', { name: 'Zoom in' });
  const isStep = (value: number) => Number.isInteger(Math.log2(value / 20));
  let zoom = zoomValue(await zoomText.innerText());
  for (let step = 0; step < 6 && zoom < 20; step += 1) {
    const before = zoom;
    await zoomIn.click();
    await expect
      .poll(async () => {
        zoom = zoomValue(await zoomText.innerText());
        return zoom > before && isStep(zoom);
      })
      .toBe(true);
  }
  expect(zoom).toBe(20);
  // Off the button, so its tooltip is not in the picture.
  await page.mouse.move(1, 1);
}
