import path from 'node:path';
import type { Logger } from 'pino';
import { imageBlobKeys } from '../modules/images/image-blobs.ts';
import { sweepStaleScratch } from '../modules/images/scratch-sweep.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import { sweepBlobTemporaries } from '../storage/temporary-sweep.ts';
import type { JobQueue, TakenBackHandler } from './job-queue.ts';
import type { QueuePayloads } from './queues.ts';

export interface LeftoverDeps {
  jobs: Pick<JobQueue<QueuePayloads>, 'running'>;
  blobs: BlobStore;
  log: Logger;
  dataDir: string;
  convertTimeoutSeconds: number;
}

/** How soon a folder still being written (by a tool started without setpriv that outlived its process) is tried again. */
const BUSY_SCRATCH_RETRY_MS = 60_000;

/** Where conversions work and uploads check zips: one folder per DATA_DIR, shared by its processes. */
export function scratchDirOf(dataDir: string): string {
  return path.join(dataDir, 'tmp');
}

/**
 * Removes the work folders of conversion attempts not running on a live worker (a killed worker's,
 * up to hundreds of MB each) and zips of uploads older than any conversion may run.
 */
export async function sweepConversionScratch(deps: LeftoverDeps): Promise<void> {
  const { removed, busy } = await sweepStaleScratch({
    scratchDir: scratchDirOf(deps.dataDir),
    running: async () =>
      (await deps.jobs.running('convert')).map((job) => ({ imageId: job.payload.imageId, retryCount: job.retryCount })),
    maxAgeMs: (deps.convertTimeoutSeconds + 600) * 1000,
  });
  if (removed.length > 0) deps.log.info({ removed }, 'removed scratch of interrupted conversions');
  if (busy.length === 0) return;
  deps.log.warn({ busy }, 'scratch of interrupted conversions is still being written; removing it later');
  setTimeout(() => {
    sweepConversionScratch(deps).catch((error: unknown) => deps.log.warn({ err: error }, 'sweeping scratch failed'));
  }, BUSY_SCRATCH_RETRY_MS).unref();
}

/** When jobs of dead workers are taken back: their scratch here, and the partial files their conversions stored. */
export function createTakenBackHandler(deps: LeftoverDeps): TakenBackHandler<QueuePayloads> {
  return async (jobs) => {
    await sweepConversionScratch(deps);
    for (const job of jobs) {
      if (job.name === 'convert')
        await sweepBlobTemporaries(deps.blobs, deps.log, imageBlobKeys.prefix(job.payload.imageId));
    }
  };
}
