import { describe, expect, it } from 'vitest';
import { drawingCommandOf } from './drawing-shortcuts.ts';

const key = (k: string, modifiers: Partial<Record<'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey', boolean>> = {}) => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...modifiers,
});

describe('drawing shortcuts', () => {
  it('pick tools by letter in either case, without clashing with the viewer keys', () => {
    expect(drawingCommandOf(key('b'))).toEqual({ kind: 'tool', tool: 'rectangle' });
    expect(drawingCommandOf(key('M'))).toEqual({ kind: 'tool', tool: 'ruler' });
    for (const viewerKey of ['r', 'f', 's', '0', '+', '-']) expect(drawingCommandOf(key(viewerKey))).toBeUndefined();
  });

  it('undo, redo and save with Ctrl or ⌘, delete, cancel, finish and toggle', () => {
    expect(drawingCommandOf(key('z', { ctrlKey: true }))).toEqual({ kind: 'undo' });
    expect(drawingCommandOf(key('Z', { metaKey: true, shiftKey: true }))).toEqual({ kind: 'redo' });
    expect(drawingCommandOf(key('y', { ctrlKey: true }))).toEqual({ kind: 'redo' });
    expect(drawingCommandOf(key('s', { ctrlKey: true }))).toEqual({ kind: 'save' });
    expect(drawingCommandOf(key('Backspace'))).toEqual({ kind: 'delete' });
    expect(drawingCommandOf(key('Escape'))).toEqual({ kind: 'cancel' });
    expect(drawingCommandOf(key('Enter'))).toEqual({ kind: 'finish' });
    expect(drawingCommandOf(key('h'))).toEqual({ kind: 'toggle' });
    expect(drawingCommandOf(key('b', { altKey: true }))).toBeUndefined();
  });
});
