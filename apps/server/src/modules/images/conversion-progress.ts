import fs from 'node:fs/promises';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { images } from '../../db/schema/index.ts';
import { TILE_SIZE } from '../../imaging/pyramid.ts';
import { pyramidLevels } from '../iiif/original-plan.ts';

const POLL_MS = 1000;
/** Tiling is most of a conversion; packing and storing the pyramid is the rest. */
const TILING_SHARE = 95;

/** Tiles written so far under a dzsave Google-layout folder (`z/y/x.jpg`). */
async function countTiles(folder: string): Promise<number> {
  let count = 0;
  const zooms = await fs.readdir(folder).catch(() => []);
  for (const zoom of zooms) {
    const rows = await fs.readdir(path.join(folder, zoom)).catch(() => []);
    for (const row of rows) count += (await fs.readdir(path.join(folder, zoom, row)).catch(() => [])).length;
  }
  return count;
}

/**
 * Reports a conversion's progress on its image row (`conversion_progress`, shown by the viewer's badge) by
 * counting the tiles written into layer 0's tile folder against the tiles its pyramid will have. Only images of
 * known size get a figure: those served from their original while they convert.
 */
export function watchConversionProgress(
  db: Db,
  imageId: string,
  size: { width: number; height: number } | null,
  workDir: string,
): { stop(): void } {
  if (size == null) return { stop() {} };
  const total = pyramidLevels(size.width, size.height).reduce(
    (sum, level) => sum + Math.ceil(level.width / TILE_SIZE) * Math.ceil(level.height / TILE_SIZE),
    0,
  );
  let last = -1;
  let stopped = false;
  const report = async () => {
    const written = await countTiles(path.join(workDir, 'tiles-0'));
    const percent = Math.min(TILING_SHARE, Math.floor((TILING_SHARE * written) / total));
    if (percent <= last || stopped) return;
    last = percent;
    await db
      .update(images)
      .set({ conversionProgress: percent })
      .where(and(eq(images.id, imageId), eq(images.status, 'processing')));
  };
  let running: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    running = running.then(report).catch(() => undefined);
  }, POLL_MS);
  timer.unref();
  return {
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}
