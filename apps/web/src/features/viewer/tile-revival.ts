import type OpenSeadragon from 'openseadragon';

/** Waits before a failed tile is asked for again, per revival of that tile: soon at first, then every 15 s. */
export const TILE_REVIVAL_DELAYS_MS: readonly number[] = [2_000, 4_000, 8_000, 15_000];

/**
 * Answers that may pass on their own: none at all (a lost connection, a restarting server), an expired token the
 * session is about to renew, a busy or briefly failing server.
 */
export function tileMayLoadLater(status: number): boolean {
  return status === 0 || status === 401 || status === 408 || status === 425 || status === 429 || status >= 500;
}

/** What OpenSeadragon 6 passes with tile-load-failed; its types lack `tries`. */
interface TileFailure {
  tile: Pick<OpenSeadragon.Tile, 'exists'>;
  tiledImage: object;
  tileRequest?: Pick<XMLHttpRequest, 'status'> | null;
  tries?: number;
}

/** What OpenSeadragon 6 passes with tile-loaded: `promise` settles once the tile is ready to draw. */
interface TileLoad {
  tile: object;
  tiledImage: object;
  promise: PromiseLike<unknown>;
}

type FailureHandler = (event: TileFailure) => void;
type LoadHandler = (event: TileLoad) => void;

/** The part of a viewer (or its navigator, a viewer of its own with its own retries) that tile revival uses. */
export interface TileEvents {
  /** OpenSeadragon's own retries of a failed tile in this viewer (its navigator has none). */
  tileRetryMax?: number;
  addHandler(name: 'tile-load-failed', handler: FailureHandler): void;
  addHandler(name: 'tile-loaded', handler: LoadHandler): void;
  removeHandler(name: 'tile-load-failed', handler: FailureHandler): void;
  removeHandler(name: 'tile-loaded', handler: LoadHandler): void;
}

/** Makes the image look at its tiles again on the next frame, as a move of the view would. */
function lookAgain(tiledImage: object): void {
  // A fully loaded image skips its tiles until the view moves; this private flag is what moving sets.
  (tiledImage as { _needsUpdate?: boolean })._needsUpdate = true;
}

/**
 * OpenSeadragon marks a tile whose tries all failed as missing for good (`exists = false`): the slide keeps a hole
 * there until it is opened again, even once the server answers again. A tile that failed for a reason that passes
 * (tileMayLoadLater) is marked present again after a wait (TILE_REVIVAL_DELAYS_MS), and its image is told to look at
 * its tiles again, so the next frame asks for it if it is still in view. Failures before a viewer's last try
 * (tileRetryMax) are OpenSeadragon's own to retry.
 *
 * A tile that arrives on such a retry of OpenSeadragon's comes back to an image that, with nothing else loading, took
 * itself for fully loaded: it draws only the tiles it listed at its last look, where the level below stands in for
 * the failed one, and would show that blurred patch until the view moves. So every tile that once failed makes its
 * image look again when it is ready to draw, whichever try brought it and at whatever level. Returns what stops the
 * waits.
 */
export function reviveFailedTiles(
  viewers: readonly TileEvents[],
  delays: readonly number[] = TILE_REVIVAL_DELAYS_MS,
): () => void {
  const revivals = new WeakMap<object, number>();
  const failed = new WeakSet<object>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let stopped = false;
  const revive = (retryMax: number, { tile, tiledImage, tileRequest, tries }: TileFailure) => {
    failed.add(tile);
    if ((tries ?? 1) < 1 + retryMax || !tileMayLoadLater(tileRequest?.status ?? 0)) return;
    const count = revivals.get(tile) ?? 0;
    revivals.set(tile, count + 1);
    const timer = setTimeout(
      () => {
        timers.delete(timer);
        tile.exists = true;
        lookAgain(tiledImage);
      },
      delays[Math.min(count, delays.length - 1)],
    );
    timers.add(timer);
  };
  const loaded = ({ tile, tiledImage, promise }: TileLoad) => {
    if (!failed.delete(tile)) return;
    void Promise.resolve(promise).then(() => {
      if (!stopped) lookAgain(tiledImage);
    });
  };
  const handlers = viewers.map((viewer) => {
    const onFailure: FailureHandler = (event) => revive(viewer.tileRetryMax ?? 0, event);
    viewer.addHandler('tile-load-failed', onFailure);
    viewer.addHandler('tile-loaded', loaded);
    return () => {
      viewer.removeHandler('tile-load-failed', onFailure);
      viewer.removeHandler('tile-loaded', loaded);
    };
  });
  return () => {
    stopped = true;
    for (const remove of handlers) remove();
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
  };
}
