import type { Drawing } from '@pathology/contract';
import { describe, expect, it } from 'vitest';
import { DrawingScene } from './drawing-scene.ts';
import { DrawingSession } from './drawing-session.ts';
import { testDrawing } from './test-drawing.ts';

function drawing(id: string, x = 0, title = ''): Drawing {
  return testDrawing(id, {
    authorAccountId: 'me',
    authorName: 'Me',
    title,
    shapeType: 'point',
    geometry: { type: 'Point', coordinates: [x, 0] },
    createdAt: '2026-11-24T00:00:00.000Z',
    updatedAt: '2026-11-24T00:00:00.000Z',
    editable: true,
  });
}

const kinds = (session: DrawingSession) => session.pending().map((op) => `${op.kind} ${op.drawing.id}`);

describe('drawing session', () => {
  it('sends only the difference from what the server confirmed', () => {
    const session = new DrawingSession(new DrawingScene());
    session.load([drawing('a'), drawing('b')]);
    session.apply({ before: null, after: drawing('c') });
    session.apply({ before: drawing('a'), after: drawing('a', 5, 'Moved') });
    session.apply({ before: drawing('b'), after: null });
    expect(kinds(session)).toEqual(['create c', 'update a', 'delete b']);
    const update = session.pending()[1]!;
    expect(update.kind === 'update' && update.patch).toEqual({
      geometry: { type: 'Point', coordinates: [5, 0] },
      title: 'Moved',
    });
    // Drawing and then removing a new drawing leaves nothing to send.
    session.apply({ before: drawing('c'), after: null });
    expect(kinds(session)).toEqual(['update a', 'delete b']);
  });

  it('undoes and redoes, and a new edit clears what could be redone', () => {
    const session = new DrawingSession(new DrawingScene());
    session.apply({ before: null, after: drawing('a') });
    session.apply({ before: drawing('a'), after: drawing('a', 9) });
    expect(session.undo()).toBe(true);
    expect(session.scene.get('a')!.geometry).toEqual({ type: 'Point', coordinates: [0, 0] });
    expect(session.undo()).toBe(true);
    expect(session.scene.size).toBe(0);
    expect(session.hasUnsaved).toBe(false);
    expect(session.redo()).toBe(true);
    expect(session.canRedo).toBe(true);
    session.apply({ before: drawing('a'), after: drawing('a', 1) });
    expect(session.canRedo).toBe(false);
  });

  it('takes the server copy once confirmed, and keeps unsaved edits over a reload', () => {
    const session = new DrawingSession(new DrawingScene());
    session.apply({ before: null, after: drawing('a') });
    const [create] = session.pending();
    session.confirm(create!, { ...drawing('a'), authorName: 'Server name' });
    expect(session.hasUnsaved).toBe(false);
    expect(session.scene.get('a')!.authorName).toBe('Server name');

    session.apply({ before: session.scene.get('a')!, after: drawing('a', 3) });
    session.load([drawing('a'), drawing('z')]);
    expect(session.scene.get('a')!.geometry).toEqual({ type: 'Point', coordinates: [3, 0] });
    expect(kinds(session)).toEqual(['update a']);
    expect(session.scene.size).toBe(2);
  });

  it('keeps an edit an update when the filter hides the edited drawing from the list', () => {
    const session = new DrawingSession(new DrawingScene());
    session.load([drawing('a'), drawing('b')]);
    session.apply({ before: drawing('a'), after: drawing('a', 0, 'Renamed') });
    // "Drawings shown: Private" narrows the list; the public drawing 'a' is not in it.
    session.load([drawing('b')]);
    expect(kinds(session)).toEqual(['update a']);
    session.load([drawing('a'), drawing('b')]);
    expect(kinds(session)).toEqual(['update a']);
  });
});
