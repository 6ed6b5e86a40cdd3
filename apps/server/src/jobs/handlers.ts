import path from 'node:path';
import type { Logger } from 'pino';
import type { Db } from '../db/client.ts';
import { convertImageJob, markConversionLost } from '../modules/images/image-conversion.job.ts';
import { recountStorageUsage } from '../modules/organizations/storage-usage.service.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import type { GivenUpHandlers, JobHandlers } from './job-queue.ts';
import { convertPolicy, type QueuePayloads } from './queues.ts';

interface WorkerDeps {
  db: Db;
  log: Logger;
  blobs: BlobStore;
  dataDir: string;
  convertTimeoutSeconds: number;
  maxImagePixels: number;
}

/** The worker's handler of every queue; each calls one service function. */
export function createJobHandlers(deps: WorkerDeps): JobHandlers<QueuePayloads> {
  const { retryLimit } = convertPolicy(deps.convertTimeoutSeconds);
  const conversion = {
    db: deps.db,
    blobs: deps.blobs,
    log: deps.log,
    scratchDir: path.join(deps.dataDir, 'tmp'),
    timeoutSeconds: deps.convertTimeoutSeconds,
    maxPixels: deps.maxImagePixels,
  };
  return {
    'storage-usage': async ({ organizationId }) => {
      const found = await recountStorageUsage(deps.db, organizationId);
      if (!found) deps.log.info({ organizationId }, 'storage recount skipped: group was deleted');
    },
    convert: ({ imageId }, job) => convertImageJob(conversion, { imageId, retryCount: job.retryCount, retryLimit }),
  };
}

/** What a job given up after its worker died on the last attempt leaves behind: never an image stuck `processing`. */
export function createGivenUpHandlers(deps: Pick<WorkerDeps, 'db' | 'log'>): GivenUpHandlers<QueuePayloads> {
  return {
    convert: async ({ imageId }) => {
      await markConversionLost(deps.db, imageId);
      deps.log.warn({ imageId }, 'conversion given up: its worker stopped on the last attempt');
    },
  };
}
