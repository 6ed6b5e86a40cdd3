import { describe, expect, it } from 'vitest';
import { shortcutOf } from './viewer-shortcuts.ts';

const press = (key: string, extra: Partial<Parameters<typeof shortcutOf>[0]> = {}) =>
  shortcutOf({ key, ctrlKey: false, metaKey: false, altKey: false, target: null, ...extra });

const element = (tagName: string, role: string | null = null, inDialog = false) => ({
  tagName,
  isContentEditable: false,
  getAttribute: (name: string) => (name === 'role' ? role : null),
  closest: () => (inDialog ? {} : null),
});

describe('shortcutOf', () => {
  it('maps the viewer keys', () => {
    expect(['ArrowLeft', 'ArrowRight', 'r', 'F', '+', '=', '-', '0', 's'].map((key) => press(key))).toEqual([
      'previous',
      'next',
      'rotate',
      'fullscreen',
      'zoomIn',
      'zoomIn',
      'zoomOut',
      'home',
      'snapshot',
    ]);
    expect(press('x')).toBeUndefined();
  });

  it('leaves modified keys to the browser', () => {
    expect(press('r', { ctrlKey: true })).toBeUndefined();
    expect(press('0', { metaKey: true })).toBeUndefined();
    expect(press('ArrowLeft', { altKey: true })).toBeUndefined();
  });

  it('leaves keys to text fields, key-driven widgets and dialogs', () => {
    expect(press('r', { target: element('INPUT') as unknown as EventTarget })).toBeUndefined();
    expect(press('ArrowLeft', { target: element('DIV', 'slider') as unknown as EventTarget })).toBeUndefined();
    expect(press('ArrowLeft', { target: element('BUTTON', null, true) as unknown as EventTarget })).toBeUndefined();
    expect(press('ArrowLeft', { target: element('BUTTON') as unknown as EventTarget })).toBe('previous');
  });
});
