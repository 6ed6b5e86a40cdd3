import { afterEach, describe, expect, it, vi } from 'vitest';
import { reviveFailedTiles, tileMayLoadLater, type TileEvents } from './tile-revival.ts';

/** A viewer's event surface: what OpenSeadragon raises with tile-load-failed, handed to the handlers. */
function fakeViewer(tileRetryMax?: number) {
  const handlers = new Set<Parameters<TileEvents['addHandler']>[1]>();
  const events: TileEvents = {
    tileRetryMax,
    addHandler: (_name, handler) => void handlers.add(handler),
    removeHandler: (_name, handler) => void handlers.delete(handler),
  };
  const fail = (status: number, tries: number, tile = { exists: false }) => {
    tile.exists = false;
    const tiledImage: { _needsUpdate?: boolean } = {};
    for (const handler of handlers) handler({ tile, tiledImage, tileRequest: { status }, tries });
    return { tile, tiledImage };
  };
  return { events, fail, handlers };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('tile revival', () => {
  it('takes up again the tiles whose answers may pass, not those refused or missing', () => {
    expect([0, 401, 408, 429, 500, 502, 503, 504].every(tileMayLoadLater)).toBe(true);
    expect([400, 403, 404, 410, 422].some(tileMayLoadLater)).toBe(false);
  });

  it('marks a tile present again after a wait once its tries are used up, waiting longer each time', () => {
    vi.useFakeTimers();
    const viewer = fakeViewer(2);
    const stop = reviveFailedTiles([viewer.events], [1000, 5000]);
    // OpenSeadragon's own retries come first (tries 1 and 2 of 1 + tileRetryMax).
    const early = viewer.fail(503, 2);
    vi.advanceTimersByTime(10_000);
    expect(early.tile.exists).toBe(false);

    const { tile, tiledImage } = viewer.fail(503, 3);
    vi.advanceTimersByTime(999);
    expect(tile.exists).toBe(false);
    vi.advanceTimersByTime(1);
    expect(tile.exists).toBe(true);
    expect(tiledImage._needsUpdate).toBe(true);
    // The same tile failing again waits the next, longer delay.
    viewer.fail(503, 3, tile);
    vi.advanceTimersByTime(4_999);
    expect(tile.exists).toBe(false);
    vi.advanceTimersByTime(1);
    expect(tile.exists).toBe(true);
    stop();
  });

  it("takes up the navigator's tiles after their only try, as it has no retries of its own", () => {
    vi.useFakeTimers();
    const [viewer, navigator] = [fakeViewer(2), fakeViewer()];
    const stop = reviveFailedTiles([viewer.events, navigator.events], [1000]);
    const { tile } = navigator.fail(503, 1);
    vi.advanceTimersByTime(1000);
    expect(tile.exists).toBe(true);
    stop();
  });

  it('leaves refused tiles missing and stops waiting when the viewer goes', () => {
    vi.useFakeTimers();
    const viewer = fakeViewer(2);
    const stop = reviveFailedTiles([viewer.events], [1000]);
    const refused = viewer.fail(403, 3);
    const pending = viewer.fail(0, 3);
    stop();
    vi.advanceTimersByTime(5_000);
    expect(refused.tile.exists).toBe(false);
    expect(pending.tile.exists).toBe(false);
    expect(viewer.handlers.size).toBe(0);
  });
});
