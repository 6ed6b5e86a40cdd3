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

/** The few browser globals the page functions below use: this project is typed without the DOM's types. */
interface PageGlobals {
  innerWidth: number;
  document: { createElement(tag: 'canvas'): PageCanvas };
  getComputedStyle: (element: unknown) => PageStyle;
}
type PageStyle = Record<
  'color' | 'backgroundColor' | 'fontSize' | 'fontWeight' | 'fontFamily' | 'paddingLeft' | 'paddingRight' | 'overflowX',
  string
>;
interface PageCanvas {
  width: number;
  height: number;
  getContext(
    kind: '2d',
    options?: { willReadFrequently: boolean },
  ): {
    fillStyle: string;
    font: string;
    clearRect(x: number, y: number, width: number, height: number): void;
    fillRect(x: number, y: number, width: number, height: number): void;
    getImageData(x: number, y: number, width: number, height: number): { data: ArrayLike<number> };
    measureText(text: string): { width: number };
  } | null;
}

/**
 * WCAG 2 contrast of an element's text against what is behind it (its own and its ancestors' backgrounds composited
 * over white), and its font size in CSS pixels. Colours are read through a canvas, so any CSS colour syntax works.
 */
export function textContrast(element: Locator): Promise<{ ratio: number; fontSize: number }> {
  return element.evaluate((target) => {
    const { document, getComputedStyle } = globalThis as unknown as PageGlobals;
    const canvas = document.createElement('canvas');
    canvas.width = 1;
    canvas.height = 1;
    const context = canvas.getContext('2d', { willReadFrequently: true })!;
    const rgba = (css: string): [number, number, number, number] => {
      context.clearRect(0, 0, 1, 1);
      context.fillStyle = css;
      context.fillRect(0, 0, 1, 1);
      const [r = 0, g = 0, b = 0, a = 0] = Array.from(context.getImageData(0, 0, 1, 1).data);
      return [r, g, b, a / 255];
    };
    const over = (top: [number, number, number, number], below: number[]) =>
      below.map((channel, i) => top[i]! * top[3] + channel * (1 - top[3]));
    const layers: [number, number, number, number][] = [];
    for (let node: { parentElement: unknown } | null = target; node; node = node.parentElement as typeof node) {
      const layer = rgba(getComputedStyle(node).backgroundColor);
      if (layer[3] > 0) layers.push(layer);
      if (layer[3] === 1) break;
    }
    const background = layers.reduceRight<number[]>((below, layer) => over(layer, below), [255, 255, 255]);
    const text = over(rgba(getComputedStyle(target).color), background);
    const luminance = (rgb: number[]) => {
      const [r, g, b] = rgb.map((value) => {
        const c = value / 255;
        return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    const [light, dark] = [luminance(text), luminance(background)].sort((a, b) => b - a);
    return { ratio: (light! + 0.05) / (dark! + 0.05), fontSize: parseFloat(getComputedStyle(target).fontSize) };
  });
}

/** Whether an input's placeholder fits its text box (the width the input leaves for text, padding and icons aside). */
export function placeholderFits(input: Locator): Promise<boolean> {
  return input.evaluate((element) => {
    const { document, getComputedStyle } = globalThis as unknown as PageGlobals;
    const field = element as unknown as { clientWidth: number; placeholder: string };
    const style = getComputedStyle(field);
    const context = document.createElement('canvas').getContext('2d')!;
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const room = field.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return context.measureText(field.placeholder).width <= room;
  });
}

interface PageElement {
  parentElement: PageElement | null;
  scrollWidth: number;
  clientWidth: number;
  getBoundingClientRect(): { left: number; right: number };
  querySelectorAll(selector: string): ArrayLike<PageElement>;
}

/**
 * How a wide element (a table) shows in its scroll container and the window: whether the container scrolls sideways,
 * and per selector how many elements inside match and how many of those are cut (content wider than the box) or not
 * wholly in sight.
 */
export function sidewaysFit(
  wide: Locator,
  selectors: readonly string[],
): Promise<{ scrolls: boolean; found: number[]; hidden: number[] }> {
  return wide.evaluate((element, wanted) => {
    const { getComputedStyle, innerWidth } = globalThis as unknown as PageGlobals;
    const target = element as unknown as PageElement;
    let frame = target.parentElement!;
    while (getComputedStyle(frame).overflowX === 'visible') frame = frame.parentElement!;
    const shown = frame.getBoundingClientRect();
    const hidden = (item: PageElement) => {
      const box = item.getBoundingClientRect();
      const inSight = box.left >= shown.left && box.right <= Math.min(shown.right, innerWidth);
      return item.scrollWidth > item.clientWidth || !inSight;
    };
    const matches = wanted.map((selector) => Array.from(target.querySelectorAll(selector)));
    return {
      scrolls: frame.scrollWidth > frame.clientWidth,
      found: matches.map((items) => items.length),
      hidden: matches.map((items) => items.filter(hidden).length),
    };
  }, selectors);
}
