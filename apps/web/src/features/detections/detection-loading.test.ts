import { describe, expect, it } from 'vitest';
import { drawnLevel, loadRestingLevelOnly, type LoadingItem, type LoadingViewer } from './detection-loading.ts';

const levels = { minLevel: 8, maxLevel: 15 };

describe('drawnLevel', () => {
  it('is the highest level whose pixels cover half a screen pixel, within the source levels', () => {
    expect(drawnLevel(1, levels)).toBe(15);
    expect(drawnLevel(2, levels)).toBe(15);
    expect(drawnLevel(0.5, levels)).toBe(15);
    expect(drawnLevel(0.49, levels)).toBe(14);
    expect(drawnLevel(0.25, levels)).toBe(14);
    expect(drawnLevel(1 / 32, levels)).toBe(11);
    expect(drawnLevel(0.03, levels)).toBe(10);
    expect(drawnLevel(1e-6, levels)).toBe(8);
  });
});

/** A viewer whose current and target zoom the test sets, firing its handlers by name. */
function standIn() {
  const handlers = new Map<string, Set<() => void>>();
  const zoom = { current: 0.03, target: 0.03 };
  const viewer = {
    addHandler: (name: string, handler: () => void) => {
      handlers.set(name, (handlers.get(name) ?? new Set()).add(handler));
    },
    removeHandler: (name: string, handler: () => void) => handlers.get(name)?.delete(handler),
    viewport: { getZoom: (current?: boolean) => (current ? zoom.current : zoom.target) },
    fire: (name: string) => handlers.get(name)?.forEach((handler) => handler()),
    handlerCount: () => [...handlers.values()].reduce((sum, set) => sum + set.size, 0),
  };
  // Viewport zoom and image zoom are the same here.
  const item: LoadingItem = {
    viewportToImageZoom: (value: number) => value,
    immediateRender: false,
    maxTilesPerFrame: 1,
    _currentMaxTilesPerFrame: 10,
    _needsUpdate: false,
  };
  return { viewer: viewer as unknown as LoadingViewer & typeof viewer, item, zoom };
}

describe('loadRestingLevelOnly', () => {
  it('asks for no tile while a zoom passes through other levels, and for the resting level once there', () => {
    const { viewer, item, zoom } = standIn();
    const undo = loadRestingLevelOnly(viewer, item, levels);
    expect(item.immediateRender).toBe(true);
    expect(item._currentMaxTilesPerFrame).toBeGreaterThan(0);

    // Six presses of + towards ×2: held from the first frame on.
    zoom.target = 2;
    viewer.fire('zoom');
    expect(item._currentMaxTilesPerFrame).toBe(0);
    for (const current of [0.05, 0.1, 0.2, 0.4]) {
      zoom.current = current;
      viewer.fire('viewport-change');
      expect(item._currentMaxTilesPerFrame).toBe(0);
    }
    // On the level of the target (not yet at its zoom): the tiles it rests on are asked for.
    zoom.current = 0.7;
    viewer.fire('viewport-change');
    expect(item._currentMaxTilesPerFrame).toBeGreaterThan(0);
    // Looked at again even when this was the last frame of the animation.
    expect(item._needsUpdate).toBe(true);

    // A pan, or a zoom within one level, goes on loading.
    zoom.target = 1.5;
    viewer.fire('zoom');
    expect(item._currentMaxTilesPerFrame).toBeGreaterThan(0);

    undo();
    expect(viewer.handlerCount()).toBe(0);
  });

  it('leaves an item loading when undone mid-zoom', () => {
    const { viewer, item, zoom } = standIn();
    const undo = loadRestingLevelOnly(viewer, item, levels);
    zoom.target = 1;
    viewer.fire('zoom');
    expect(item._currentMaxTilesPerFrame).toBe(0);
    undo();
    expect(item._currentMaxTilesPerFrame).toBeGreaterThan(0);
  });
});
