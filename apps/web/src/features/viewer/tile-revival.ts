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

type FailureHandler = (event: TileFailure) => void;

/** The part of a viewer (or its navigator, a viewer of its own with its own retries) that tile revival uses. */
export interface TileEvents {
  /** OpenSeadragon's own retries of a failed tile in this viewer (its navigator has none). */
  tileRetryMax?: number;
  addHandler(name: 'tile-load-failed', handler: FailureHandler): void;
  removeHandler(name: 'tile-load-failed', handler: FailureHandler): void;
}

/**
 * OpenSeadragon marks a tile whose tries all failed as missing for good (`exists = false`): the slide keeps a hole
 * there until it is opened again, even once the server answers again. A tile that failed for a reason that passes
 * (tileMayLoadLater) is marked present again after a wait (TILE_REVIVAL_DELAYS_MS), and its image is told to look at
 * its tiles again, so the next frame asks for it if it is still in view. Failures before a viewer's last try
 * (tileRetryMax) are OpenSeadragon's own to retry. Returns what stops the waits.
 */
export function reviveFailedTiles(
  viewers: readonly TileEvents[],
  delays: readonly number[] = TILE_REVIVAL_DELAYS_MS,
): () => void {
  const revivals = new WeakMap<object, number>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const revive = (retryMax: number, { tile, tiledImage, tileRequest, tries }: TileFailure) => {
    if ((tries ?? 1) < 1 + retryMax || !tileMayLoadLater(tileRequest?.status ?? 0)) return;
    const count = revivals.get(tile) ?? 0;
    revivals.set(tile, count + 1);
    const timer = setTimeout(
      () => {
        timers.delete(timer);
        tile.exists = true;
        // A fully loaded image skips its tiles until the view moves; this private flag is what moving sets.
        (tiledImage as { _needsUpdate?: boolean })._needsUpdate = true;
      },
      delays[Math.min(count, delays.length - 1)],
    );
    timers.add(timer);
  };
  const handlers = viewers.map((viewer) => {
    const handler: FailureHandler = (event) => revive(viewer.tileRetryMax ?? 0, event);
    viewer.addHandler('tile-load-failed', handler);
    return () => viewer.removeHandler('tile-load-failed', handler);
  });
  return () => {
    for (const remove of handlers) remove();
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
  };
}
