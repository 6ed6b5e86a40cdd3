import type { Logger } from 'pino';
import type pg from 'pg';
import type { Db } from '../../db/client.ts';
import { HttpError } from '../../http/http-error.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import { detectionsOf } from './detection-file.ts';
import { settleDetections, storeDetections } from './detection-import.ts';
import {
  claimDetectionImport,
  completeDetectionImport,
  detectionImportExists,
  failDetectionImport,
  reportDetectionImport,
} from './detection-imports.ts';
import { detectionImportKey } from './detection-upload.ts';

export interface DetectionImportJobDeps {
  db: Db;
  pool: pg.Pool;
  blobs: BlobStore;
  log: Logger;
  maxFeatures: number;
  /** Polygon points of one import; MAX_DETECTION_IMPORT_VERTICES unless told. */
  maxVertices?: number;
}

interface Attempt {
  importId: string;
  /** pg-boss's retry count of this job and the queue's limit: the last attempt records the failure. */
  retryCount: number;
  retryLimit: number;
}

/** How often a running import writes its progress: often enough for a smooth bar, rarely enough to cost nothing. */
const PROGRESS_INTERVAL_MS = 300;

/** Thrown when the import went away (its layer was deleted) while it ran: the work stops quietly. */
class ImportWithdrawn extends Error {}

/**
 * The `detection-import` job: parses the uploaded file from the blob store and stores its detections in one
 * transaction, writing bytes and features read as it goes. That transaction names the stored set on the import, so a
 * worker killed at any point leaves either nothing stored (its lapsed lease gets the job retried from the start) or
 * the whole set, which a retry only settles. The import is `completed` once its objects are settled, ready to read at
 * full speed. A bad feature or file fails the import with the message a 422 would carry, for good; any other error is
 * retried, and recorded once the last attempt fails.
 */
export async function detectionImportJob(deps: DetectionImportJobDeps, attempt: Attempt): Promise<void> {
  const { db, log } = deps;
  const { importId } = attempt;
  const claimed = await claimDetectionImport(db, importId);
  const key = detectionImportKey(importId);
  if (!claimed) {
    // Gone with its layer or image before it ran: nobody will ask for its file again.
    if (!(await detectionImportExists(db, importId))) await deps.blobs.delete(key);
    log.info({ importId }, 'detection import skipped: it is gone or no longer waiting');
    return;
  }
  try {
    if (claimed.setId === null) await storeFile(deps, importId, claimed);
    // Settling only saves readers work: an import whose settling failed is complete all the same.
    await settleDetections(deps.pool).catch((error: unknown) =>
      log.warn({ importId, err: error }, 'stored detections left for autovacuum to settle'),
    );
    if (!(await completeDetectionImport(db, importId))) throw new ImportWithdrawn();
    await deps.blobs.delete(key);
  } catch (error) {
    if (error instanceof ImportWithdrawn) {
      log.info({ importId }, 'detection import withdrawn while it ran');
      await deps.blobs.delete(key);
      return;
    }
    if (error instanceof HttpError) {
      // The file itself is bad: trying again would find the same feature.
      const [field] = Object.keys(error.errors ?? { file: '' });
      await failDetectionImport(db, importId, error.message, field ?? 'file');
      await deps.blobs.delete(key);
      return;
    }
    if (attempt.retryCount >= attempt.retryLimit) await failDetectionImport(db, importId, (error as Error).message);
    throw error;
  }
}

type Claimed = NonNullable<Awaited<ReturnType<typeof claimDetectionImport>>>;

/** Stores the import's file as one set, naming it on the import in the same transaction. */
async function storeFile(deps: DetectionImportJobDeps, importId: string, claimed: Claimed): Promise<void> {
  let bytes = 0;
  let reported = 0;
  const source = await deps.blobs.get(detectionImportKey(importId));
  const target = { ...claimed, size: { width: claimed.width, height: claimed.height } };
  const stored = await storeDetections(
    deps.pool,
    detectionsOf(source, target.size, (read) => (bytes = read)),
    target,
    {
      maxFeatures: deps.maxFeatures,
      maxVertices: deps.maxVertices,
      onProgress: async (features) => {
        if (performance.now() - reported < PROGRESS_INTERVAL_MS) return;
        reported = performance.now();
        if (!(await reportDetectionImport(deps.db, importId, bytes, features))) throw new ImportWithdrawn();
      },
      beforeCommit: async (client, { setId, count }) => {
        const done = await client.query(
          `UPDATE detection_imports SET set_id = $2, features_read = $3, bytes_read = bytes_total, updated_at = now()
           WHERE id = $1 AND status = 'running'`,
          [importId, setId, count],
        );
        if (done.rowCount === 0) throw new ImportWithdrawn();
      },
    },
  );
  deps.log.info({ importId, count: stored.count }, 'detections imported');
}
