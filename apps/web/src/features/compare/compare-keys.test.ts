import { describe, expect, it } from 'vitest';
import { TOOL_KEYS } from '../drawings/drawing-shortcuts.ts';
import { compareKeyOf } from './compare-keys.ts';

const press = (key: string, extra: Partial<Parameters<typeof compareKeyOf>[0]> = {}) =>
  compareKeyOf({ key, shiftKey: false, ctrlKey: false, metaKey: false, altKey: false, target: null, ...extra });

const element = (tagName: string, inSlide = false) =>
  ({
    tagName,
    getAttribute: () => null,
    closest: (selector: string) => (selector === '.openseadragon-canvas' && inSlide ? {} : null),
  }) as unknown as EventTarget;

describe('comparison keys', () => {
  it('pans with arrows, zooms with +/-, locks with K', () => {
    expect(press('ArrowRight')).toEqual({ kind: 'pan', dx: 100, dy: 0 });
    expect(press('ArrowUp')).toEqual({ kind: 'pan', dx: 0, dy: -100 });
    expect(press('+')).toEqual({ kind: 'zoom', direction: 'in' });
    expect(press('-')).toEqual({ kind: 'zoom', direction: 'out' });
    expect(press('K')).toEqual({ kind: 'lock' });
    expect(press('k')).toEqual({ kind: 'lock' });
    expect(press('k', { ctrlKey: true })).toBeUndefined();
  });

  it('takes no key of the drawing tools in the panes (L is their line tool)', () => {
    for (const key of Object.values(TOOL_KEYS)) {
      expect(press(key), key).toBeUndefined();
      expect(press(key.toLowerCase()), key).toBeUndefined();
    }
  });

  it('moves the lead with Tab from the page or a slide, and leaves Tab to buttons and fields', () => {
    expect(press('Tab')).toEqual({ kind: 'lead', step: 1 });
    expect(press('Tab', { shiftKey: true, target: element('DIV', true) })).toEqual({ kind: 'lead', step: -1 });
    expect(press('Tab', { target: element('BUTTON') })).toBeUndefined();
    expect(press('ArrowLeft', { target: element('INPUT') })).toBeUndefined();
  });
});
