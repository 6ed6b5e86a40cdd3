import { describe, expect, it } from 'vitest';
import { roughWhileMoving, type MotionViewer } from './motion-quality.ts';

/** A viewer's events and its drawer's smoothing, as far as roughWhileMoving uses them. */
function fakeViewer() {
  const handlers = new Map<string, Set<() => void>>();
  const smoothing: boolean[] = [];
  const viewer = {
    addHandler: (name: string, handler: () => void) => {
      if (!handlers.has(name)) handlers.set(name, new Set());
      handlers.get(name)!.add(handler);
    },
    removeHandler: (name: string, handler: () => void) => handlers.get(name)?.delete(handler),
    drawer: { setImageSmoothingEnabled: (enabled: boolean) => smoothing.push(enabled) } as MotionViewer['drawer'],
  };
  const raise = (name: string) => handlers.get(name)?.forEach((handler) => handler());
  return { viewer: viewer as unknown as MotionViewer & typeof viewer, raise, smoothing, handlers };
}

describe('roughWhileMoving', () => {
  it('turns smoothing off when the viewer starts moving and back on when it stops', () => {
    const { viewer, raise, smoothing } = fakeViewer();
    roughWhileMoving(viewer);
    raise('animation-start');
    expect(smoothing).toEqual([false]);
    raise('animation-finish');
    expect(smoothing).toEqual([false, true]);
  });

  it('leaves a viewer undone in the middle of a motion smooth, and no longer listening', () => {
    const { viewer, raise, smoothing, handlers } = fakeViewer();
    const undo = roughWhileMoving(viewer);
    raise('animation-start');
    undo();
    expect(smoothing.at(-1)).toBe(true);
    raise('animation-start');
    expect(smoothing.at(-1)).toBe(true);
    expect([...handlers.values()].every((set) => set.size === 0)).toBe(true);
  });

  it('does nothing to a destroyed viewer (no drawer)', () => {
    const { viewer } = fakeViewer();
    const undo = roughWhileMoving(viewer);
    viewer.drawer = null;
    expect(undo).not.toThrow();
  });
});
