import path from 'node:path';
import type { Logger } from 'pino';
import type pg from 'pg';
import type { Db } from '../db/client.ts';
import { convertImageJob, markConversionLost } from '../modules/images/image-conversion.job.ts';
import { detectionImportJob } from '../modules/detections/detection-import.job.ts';
import { failDetectionImport } from '../modules/detections/detection-imports.ts';
import { createPyramidCache } from '../modules/iiif/pyramid-cache.ts';
import type { ModelRegistry } from '../modules/predictions/model-registry.ts';
import { failPrediction, predictJob } from '../modules/predictions/prediction.job.ts';
import { recountStorageUsage } from '../modules/organizations/storage-usage.service.ts';
import type { BlobStore } from '../storage/blob-store.ts';
import { WORKER_LOST, type GivenUpHandlers, type JobHandlers } from './job-queue.ts';
import { scratchDirOf } from './leftovers.ts';
import { convertPolicy, QUEUE_POLICIES, type QueuePayloads } from './queues.ts';

interface WorkerDeps {
  db: Db;
  pool: pg.Pool;
  log: Logger;
  blobs: BlobStore;
  dataDir: string;
  convertTimeoutSeconds: number;
  convertMinSeconds?: number;
  convertHoldDir?: string;
  conversionNiceness?: number;
  maxImagePixels: number;
  models: ModelRegistry;
  /** Most detections one import (or one model's run) stores. */
  maxDetections: number;
}

/** The worker's handler of every queue; each calls one service function. */
export function createJobHandlers(deps: WorkerDeps): JobHandlers<QueuePayloads> {
  const { retryLimit } = convertPolicy(deps.convertTimeoutSeconds);
  const conversion = {
    db: deps.db,
    blobs: deps.blobs,
    log: deps.log,
    scratchDir: scratchDirOf(deps.dataDir),
    timeoutSeconds: deps.convertTimeoutSeconds,
    minSeconds: deps.convertMinSeconds,
    holdDir: deps.convertHoldDir,
    maxPixels: deps.maxImagePixels,
    niceness: deps.conversionNiceness,
  };
  const predictPolicy = QUEUE_POLICIES.predict;
  const prediction = {
    db: deps.db,
    pool: deps.pool,
    maxDetections: deps.maxDetections,
    log: deps.log,
    models: deps.models,
    pyramids: createPyramidCache({ blobs: deps.blobs, cacheDir: path.join(deps.dataDir, 'cache', 'pyramids') }),
  };
  const detectionImport = {
    db: deps.db,
    pool: deps.pool,
    blobs: deps.blobs,
    log: deps.log,
    maxFeatures: deps.maxDetections,
  };
  return {
    'storage-usage': async ({ organizationId }) => {
      const found = await recountStorageUsage(deps.db, organizationId);
      if (!found) deps.log.info({ organizationId }, 'storage recount skipped: group was deleted');
    },
    convert: ({ imageId }, job) => convertImageJob(conversion, { imageId, retryCount: job.retryCount, retryLimit }),
    predict: ({ predictionId }, job) =>
      predictJob(prediction, { predictionId, retryCount: job.retryCount, retryLimit: predictPolicy.retryLimit }),
    'detection-import': ({ importId }, job) =>
      detectionImportJob(detectionImport, {
        importId,
        retryCount: job.retryCount,
        retryLimit: QUEUE_POLICIES['detection-import'].retryLimit,
      }),
  };
}

/** What a job given up after its worker died on the last attempt leaves behind: never an image stuck `processing`. */
export function createGivenUpHandlers(deps: Pick<WorkerDeps, 'db' | 'log'>): GivenUpHandlers<QueuePayloads> {
  return {
    convert: async ({ imageId }) => {
      await markConversionLost(deps.db, imageId);
      deps.log.warn({ imageId }, 'conversion given up: its worker stopped on the last attempt');
    },
    predict: async ({ predictionId }) => {
      await failPrediction(deps.db, predictionId, WORKER_LOST);
      deps.log.warn({ predictionId }, 'prediction given up: its worker stopped on the last attempt');
    },
    'detection-import': async ({ importId }) => {
      await failDetectionImport(deps.db, importId, WORKER_LOST);
      deps.log.warn({ importId }, 'detection import given up: its worker stopped on the last attempt');
    },
  };
}
