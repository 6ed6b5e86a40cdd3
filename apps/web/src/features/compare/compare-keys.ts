import { isTyping } from '../viewer/viewer-shortcuts.ts';

export type CompareKey =
  | { kind: 'pan'; dx: number; dy: number }
  | { kind: 'zoom'; direction: 'in' | 'out' }
  | { kind: 'lock' }
  | { kind: 'lead'; step: 1 | -1 };

/** Links or unlinks the leading slide: not L, which is each pane's line tool (drawing-shortcuts.ts). */
export const LINK_KEY = 'K';

/** Screen pixels an arrow key pans the leading slide. */
export const ARROW_PAN_PX = 100;

const PAN: Record<string, [number, number]> = {
  ArrowLeft: [-ARROW_PAN_PX, 0],
  ArrowRight: [ARROW_PAN_PX, 0],
  ArrowUp: [0, -ARROW_PAN_PX],
  ArrowDown: [0, ARROW_PAN_PX],
};

interface KeyEventLike {
  key: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  isComposing?: boolean;
  defaultPrevented?: boolean;
  target: EventTarget | null;
}

/** Whether focus rests on nothing that takes keys itself: the page or a slide, not a button or field. */
function onPageOrSlide(target: EventTarget | null): boolean {
  const element = target as { tagName?: string; closest?: (selector: string) => unknown } | null;
  if (!element?.tagName || element.tagName === 'BODY') return true;
  return Boolean(element.closest?.('.openseadragon-canvas'));
}

/**
 * The comparison's keys: arrows pan the leader, +/- zoom it, K links or unlinks it, Tab hands the lead to the next
 * slide (Shift+Tab the previous). Tab does so only from the page or a slide, so it still moves through the controls.
 */
export function compareKeyOf(event: KeyEventLike): CompareKey | undefined {
  if (event.defaultPrevented || event.isComposing || event.ctrlKey || event.metaKey || event.altKey) return undefined;
  if (isTyping(event.target)) return undefined;
  if (event.key === 'Tab')
    return onPageOrSlide(event.target) ? { kind: 'lead', step: event.shiftKey ? -1 : 1 } : undefined;
  const pan = PAN[event.key];
  if (pan) return { kind: 'pan', dx: pan[0], dy: pan[1] };
  if (event.key === '+' || event.key === '=') return { kind: 'zoom', direction: 'in' };
  if (event.key === '-' || event.key === '_') return { kind: 'zoom', direction: 'out' };
  if (event.key.toUpperCase() === LINK_KEY) return { kind: 'lock' };
  return undefined;
}
