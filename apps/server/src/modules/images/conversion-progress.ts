import fs from 'node:fs/promises';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { images } from '../../db/schema/index.ts';
import { zipTileCounter } from '../../imaging/google-tiles-zip.ts';
import { TILE_SIZE, tilesPath } from '../../imaging/pyramid.ts';
import { pyramidLevels } from '../iiif/original-plan.ts';

const POLL_MS = 1000;
/**
 * Writing the tiles is most of a conversion's work; the steps after it get the rest of the bar, so the figure
 * keeps moving to the end: packing the tiles into the pyramid file and storing it (to CONVERTED), then the
 * wait for the hand-over (to STORED).
 */
const TILING_SHARE = 90;
const CONVERTED = 95;
const STORED = 99;

/** Tiles written so far per zoom folder of a dzsave Google-layout folder (`z/y/x.jpg`): sharp's tiles. */
async function tilesPerZoom(folder: string): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  const zooms = await fs.readdir(folder).catch(() => []);
  for (const zoom of zooms) {
    if (!/^\d+$/.test(zoom)) continue;
    let count = 0;
    const rows = await fs.readdir(path.join(folder, zoom)).catch(() => []);
    for (const row of rows) count += (await fs.readdir(path.join(folder, zoom, row)).catch(() => [])).length;
    counts.set(Number(zoom), count);
  }
  return counts;
}

/**
 * The share of the tiling done, 0–1: each level's tiles written against its tiles, weighted by the level's area
 * (the pixels read and encoded for it). Zoom folder z holds the level that is z halvings above the smallest.
 */
export function tilingDone(size: { width: number; height: number }, written: ReadonlyMap<number, number>): number {
  const levels = pyramidLevels(size.width, size.height);
  let done = 0;
  let total = 0;
  for (const [index, level] of levels.entries()) {
    const tiles = Math.ceil(level.width / TILE_SIZE) * Math.ceil(level.height / TILE_SIZE);
    const area = level.width * level.height;
    const zoom = levels.length - 1 - index;
    done += area * Math.min(1, (written.get(zoom) ?? 0) / tiles);
    total += area;
  }
  return done / total;
}

export interface ProgressOptions {
  /**
   * CONVERT_MIN_SECONDS of a slide served from its original: the conversion is held until then, so the figure also
   * follows the time gone against it and reaches the end with the hand-over, not with the tiles.
   */
  minSeconds?: number;
  pollMs?: number;
}

export interface ProgressWatch {
  /** The tiles are packed into the pyramid (the conversion step returned). */
  converted(): void;
  /** The pyramid, thumbnail and side pictures are stored; only the swap is left. */
  stored(): void;
  stop(): void;
}

/**
 * Reports a conversion's progress on its image row (`conversion_progress`, shown by the viewer's badge and the
 * image lists): the tiles written for layer 0 (into the zip of the vips command line, or sharp's folder) weighted by
 * their level's area, then the steps after the tiling. Only images of known size get a figure: those served from
 * their original while they convert.
 */
export function watchConversionProgress(
  db: Db,
  imageId: string,
  size: { width: number; height: number } | null,
  workDir: string,
  options: ProgressOptions = {},
): ProgressWatch {
  if (size == null) return { converted() {}, stored() {}, stop() {} };
  const started = Date.now();
  const holdMs = (options.minSeconds ?? 0) * 1000;
  let step = 0;
  let last = -1;
  let stopped = false;
  const zipped = zipTileCounter(tilesPath(workDir, 0, 'zip'));
  const written = async () => {
    const inZip = await zipped();
    return inZip.size > 0 ? inZip : tilesPerZoom(tilesPath(workDir, 0, 'folder'));
  };
  const report = async () => {
    const work = step > 0 ? step : TILING_SHARE * tilingDone(size, await written());
    const time = holdMs > 0 ? (STORED * (Date.now() - started)) / holdMs : STORED;
    const percent = Math.floor(Math.min(work, time, STORED));
    if (percent <= last || stopped) return;
    last = percent;
    await db
      .update(images)
      .set({ conversionProgress: percent })
      .where(and(eq(images.id, imageId), eq(images.status, 'processing')));
  };
  let running: Promise<void> = Promise.resolve();
  const poll = () => {
    running = running.then(report).catch(() => undefined);
  };
  const timer = setInterval(poll, options.pollMs ?? POLL_MS);
  timer.unref();
  return {
    converted() {
      step = CONVERTED;
      poll();
    },
    stored() {
      step = STORED;
      poll();
    },
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}
