import { afterEach, describe, expect, it, vi } from 'vitest';
import { reviveFailedTiles, tileMayLoadLater, type TileEvents } from './tile-revival.ts';

/** A viewer's event surface: what OpenSeadragon raises with tile-load-failed and tile-loaded, handed to the handlers. */
function fakeViewer(tileRetryMax?: number) {
  type Handler = (event: never) => void;
  const handlers = { 'tile-load-failed': new Set<Handler>(), 'tile-loaded': new Set<Handler>() };
  const events: TileEvents = {
    tileRetryMax,
    addHandler: (name: keyof typeof handlers, handler: Handler) => void handlers[name].add(handler),
    removeHandler: (name: keyof typeof handlers, handler: Handler) => void handlers[name].delete(handler),
  };
  const fail = (
    status: number,
    tries: number,
    tile = { exists: false },
    tiledImage: { _needsUpdate?: boolean } = {},
  ) => {
    tile.exists = false;
    for (const handler of handlers['tile-load-failed']) {
      (handler as (event: unknown) => void)({ tile, tiledImage, tileRequest: { status }, tries });
    }
    return { tile, tiledImage };
  };
  /** A tile's data arrived: the promise settles once it is ready to draw, as OpenSeadragon's does. */
  const load = async (tile: object, tiledImage: { _needsUpdate?: boolean }) => {
    for (const handler of handlers['tile-loaded']) {
      (handler as (event: unknown) => void)({ tile, tiledImage, promise: Promise.resolve(tile) });
    }
    await Promise.resolve();
  };
  const size = () => handlers['tile-load-failed'].size + handlers['tile-loaded'].size;
  return { events, fail, load, size };
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
    expect(viewer.size()).toBe(0);
  });

  it("makes the image look at its tiles again when a tile arrives on OpenSeadragon's own retry", async () => {
    const viewer = fakeViewer(2);
    const stop = reviveFailedTiles([viewer.events], [1000]);
    // The first try failed: the level below stands in while OpenSeadragon waits to try again.
    const { tile, tiledImage } = viewer.fail(503, 1);
    expect(tiledImage._needsUpdate).toBeUndefined();
    // The second try brings it, to an image that took itself for fully loaded and would not draw it.
    await viewer.load(tile, tiledImage);
    await Promise.resolve();
    expect(tiledImage._needsUpdate).toBe(true);
    // A tile that never failed loads the ordinary way, which already draws it.
    const fresh: { _needsUpdate?: boolean } = {};
    await viewer.load({ exists: true }, fresh);
    await Promise.resolve();
    expect(fresh._needsUpdate).toBeUndefined();
    stop();
  });
});
