import type { Locator, Page } from 'playwright-core';

/** Badge and button labels under `root` whose text is cut (ellipsis or clipping): wider than the box shows. */
export function truncatedLabels(root: Locator): Promise<string[]> {
  return root.evaluate((element) =>
    [...element.querySelectorAll('.mantine-Badge-label, .mantine-Button-label')]
      .filter((label) => label.getClientRects().length > 0 && label.scrollWidth > label.clientWidth + 1)
      .map((label) => label.textContent ?? ''),
  );
}

/** How far the page reaches past the window's right edge (≤ 0: no sideways scrolling). */
export function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
}

/** The texts among `texts` (a locator of several elements) that their box cuts, sideways or below. */
export function cutTexts(texts: Locator): Promise<string[]> {
  return texts.evaluateAll((elements) =>
    elements
      .filter((text) => text.scrollWidth > text.clientWidth + 1 || text.scrollHeight > text.clientHeight + 1)
      .map((text) => text.textContent ?? ''),
  );
}
