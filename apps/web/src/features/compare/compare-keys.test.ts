import { describe, expect, it } from 'vitest';
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
  it('pans with arrows, zooms with +/-, locks with L', () => {
    expect(press('ArrowRight')).toEqual({ kind: 'pan', dx: 100, dy: 0 });
    expect(press('ArrowUp')).toEqual({ kind: 'pan', dx: 0, dy: -100 });
    expect(press('+')).toEqual({ kind: 'zoom', direction: 'in' });
    expect(press('-')).toEqual({ kind: 'zoom', direction: 'out' });
    expect(press('L')).toEqual({ kind: 'lock' });
    expect(press('l', { ctrlKey: true })).toBeUndefined();
  });

  it('moves the lead with Tab from the page or a slide, and leaves Tab to buttons and fields', () => {
    expect(press('Tab')).toEqual({ kind: 'lead', step: 1 });
    expect(press('Tab', { shiftKey: true, target: element('DIV', true) })).toEqual({ kind: 'lead', step: -1 });
    expect(press('Tab', { target: element('BUTTON') })).toBeUndefined();
    expect(press('ArrowLeft', { target: element('INPUT') })).toBeUndefined();
  });
});
