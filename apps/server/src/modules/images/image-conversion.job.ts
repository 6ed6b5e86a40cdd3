import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { IMAGE_MESSAGES, PROCESS_ERROR_CODES } from '@pathology/contract';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../db/client.ts';
import { cases, imageAssociated, imageLayers, images } from '../../db/schema/index.ts';
import { convertImage, UnsupportedImageError, type ConvertedImage } from '../../imaging/index.ts';
import { WORKER_LOST } from '../../jobs/job-queue.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import { adjustUsage } from '../cases/case-storage.ts';
import { holdUntil, holdUntilReleased } from './conversion-hold.ts';
import { watchConversionProgress } from './conversion-progress.ts';
import { watchImageDeletion } from './deletion-watch.ts';
import { imageBlobKeys, sweepImageBlobs } from './image-blobs.ts';
import { replaceLayers } from './layer-replacement.ts';
import { shareConversion } from './shared-conversion.ts';
import { attemptFolderPrefix } from './scratch-sweep.ts';

export interface ConversionDeps {
  db: Db;
  blobs: BlobStore;
  log: Logger;
  /** Local scratch space; each attempt works in a folder of its own below it. */
  scratchDir: string;
  timeoutSeconds: number;
  /** MAX_IMAGE_PIXELS; the imaging default when unset. */
  maxPixels?: number;
  /** CONVERSION_NICENESS; 0 when unset. */
  niceness?: number;
  /** CONVERT_MIN_SECONDS: the shortest a conversion of a slide served from its original takes (it waits before swapping its pyramid in). */
  minSeconds?: number;
  /** CONVERT_HOLD: a folder whose file named after the image releases the hand-over of a slide served from its original. */
  holdDir?: string;
  /** How often the progress figure on the image row is refreshed; 1 s when unset. */
  progressPollMs?: number;
}

interface Attempt {
  imageId: string;
  /** pg-boss's retry count of this job and the queue's limit: the last attempt records the failure. */
  retryCount: number;
  retryLimit: number;
}

/** The stored pyramids, thumbnail and side pictures of one conversion. */
interface StoredConversion {
  converted: ConvertedImage;
  layers: { layerNumber: number; key: string; size: number }[];
  thumbnailKey: string;
  associated: { kind: 'label' | 'macro' | 'thumbnail'; key: string; width: number; height: number }[];
}

/**
 * The `convert` job: original → tiled pyramids + thumbnail + metadata → `available`. Everything is
 * written under a fresh blob folder first and swapped in by one transaction, so a worker killed at
 * any point leaves the image `processing` with its old layers (its lapsed lease gets the job retried), and never
 * `available` with half a pyramid. Leftovers of an interrupted attempt are swept by the next one. Deleting
 * the image stops the attempt (its vips child is killed) and removes what it stored.
 */
export async function convertImageJob(deps: ConversionDeps, attempt: Attempt): Promise<void> {
  const { db, log } = deps;
  const { imageId } = attempt;
  const [claimed] = await db
    .update(images)
    .set({ status: 'processing', processErrorCode: null, processErrorMessage: null, conversionProgress: 0 })
    .where(and(eq(images.id, imageId), inArray(images.status, ['uploaded', 'processing'])))
    .returning({ originalKey: images.originalKey, width: images.width, height: images.height });
  if (claimed?.originalKey == null) {
    log.info({ imageId }, 'conversion skipped: the image is gone or not waiting for conversion');
    return;
  }
  await fs.mkdir(deps.scratchDir, { recursive: true });
  const workDir = await fs.mkdtemp(attemptFolderPrefix(deps.scratchDir, imageId, attempt.retryCount));
  const deletion = watchImageDeletion(db, imageId);
  const { signal } = deletion;
  const started = Date.now();
  const size =
    claimed.width != null && claimed.height != null ? { width: claimed.width, height: claimed.height } : null;
  const early = await servedFromOriginal(db, imageId);
  const progress = watchConversionProgress(db, imageId, size, workDir, {
    minSeconds: early ? deps.minSeconds : 0,
    pollMs: deps.progressPollMs,
  });
  try {
    const sourcePath = await localCopy(deps.blobs, claimed.originalKey, workDir, signal);
    const converted = await convertImage({
      sourcePath,
      workDir,
      timeoutMs: deps.timeoutSeconds * 1000,
      maxPixels: deps.maxPixels,
      niceness: deps.niceness,
      signal,
    });
    progress.converted();
    const stored = await storeOutputs(deps.blobs, imageId, converted, signal);
    progress.stored();
    if (early) await holdUntil(started + (deps.minSeconds ?? 0) * 1000, signal);
    if (early && deps.holdDir != null) await holdUntilReleased(deps.holdDir, imageId, signal);
    const shared = await commit(db, imageId, stored);
    await sweepImageBlobs(db, deps.blobs, imageId);
    log.info({ imageId, committed: shared != null, shared, layers: stored.layers.length }, 'image converted');
  } catch (error) {
    if (signal.aborted) {
      // Deleted meanwhile: the deletion swept the blobs it saw; what this attempt stored since goes now.
      await sweepImageBlobs(db, deps.blobs, imageId);
      log.info({ imageId }, 'conversion cancelled: the image was deleted');
      return;
    }
    const finalAttempt = attempt.retryCount >= attempt.retryLimit;
    if (error instanceof UnsupportedImageError) {
      await markFailed(db, imageId, PROCESS_ERROR_CODES.unsupportedData, error.message);
      log.warn({ imageId, reason: error.message }, 'image contains unsupported data');
      return;
    }
    if (finalAttempt) {
      const reason = error instanceof Error ? error.message : String(error);
      await markFailed(
        db,
        imageId,
        PROCESS_ERROR_CODES.pleaseReprocess,
        `${IMAGE_MESSAGES.pleaseReprocess}: ${reason}`,
      );
    }
    throw error;
  } finally {
    progress.stop();
    deletion.stop();
    await fs.rm(workDir, { recursive: true, force: true });
  }
}

async function servedFromOriginal(db: Db, imageId: string): Promise<boolean> {
  const [layer] = await db
    .select({ id: imageLayers.id })
    .from(imageLayers)
    .where(and(eq(imageLayers.imageId, imageId), eq(imageLayers.fromOriginal, true)));
  return layer != null;
}

/** The original as a local file: the store's own file when it keeps files, else a copy in the work folder. */
async function localCopy(blobs: BlobStore, key: string, workDir: string, signal: AbortSignal): Promise<string> {
  const local = await blobs.localPath?.(key);
  if (local != null) return local;
  const copy = path.join(workDir, 'original');
  await pipeline(await blobs.get(key), createWriteStream(copy), { signal });
  return copy;
}

/** Stores one output; an abort cuts the read, so the store discards the partial blob. */
async function putFile(blobs: BlobStore, key: string, file: string, contentType: string, signal: AbortSignal) {
  signal.throwIfAborted();
  const { size } = await fs.stat(file);
  await blobs.put(key, createReadStream(file, { signal }), { size, contentType });
  return size;
}

async function storeOutputs(
  blobs: BlobStore,
  imageId: string,
  converted: ConvertedImage,
  signal: AbortSignal,
): Promise<StoredConversion> {
  const folder = imageBlobKeys.conversion(imageId);
  const layers = [];
  for (const layer of converted.layers) {
    const key = imageBlobKeys.layer(folder, layer.layerNumber);
    layers.push({
      layerNumber: layer.layerNumber,
      key,
      size: await putFile(blobs, key, layer.pyramidPath, 'image/tiff', signal),
    });
  }
  const thumbnailKey = imageBlobKeys.thumbnail(folder);
  await putFile(blobs, thumbnailKey, converted.thumbnailPath, 'image/jpeg', signal);
  const associated = [];
  for (const picture of converted.associated) {
    const key = imageBlobKeys.associated(folder, picture.kind);
    await putFile(blobs, key, picture.path, 'image/jpeg', signal);
    associated.push({ kind: picture.kind, key, width: picture.width, height: picture.height });
  }
  return { converted, layers, thumbnailKey, associated };
}

/**
 * Swaps the new layers in and marks the image available, with the waiting images of the same original; returns
 * those, or null when the image was deleted or reset meanwhile.
 */
async function commit(db: Db, imageId: string, stored: StoredConversion): Promise<string[] | null> {
  const { converted } = stored;
  return db.transaction(async (tx) => {
    const [image] = await tx
      .select({ status: images.status, ownerOrganizationId: cases.ownerOrganizationId })
      .from(images)
      .innerJoin(cases, eq(cases.id, images.caseId))
      .where(eq(images.id, imageId))
      .for('update', { of: images });
    if (image?.status !== 'processing') return null;
    const [previous] = await tx
      .select({ bytes: sql<number>`coalesce(sum(${imageLayers.pyramidalSize}), 0)::float8` })
      .from(imageLayers)
      .where(eq(imageLayers.imageId, imageId));
    await replaceLayers(
      tx,
      imageId,
      converted.layers.map((layer, index) => ({ layer, ...stored.layers[index]! })),
    );
    await tx.delete(imageAssociated).where(eq(imageAssociated.imageId, imageId));
    if (stored.associated.length > 0) {
      await tx
        .insert(imageAssociated)
        .values(stored.associated.map((picture) => ({ imageId, ...picture, blobKey: picture.key })));
    }
    await tx
      .update(images)
      .set({
        status: 'available',
        format: converted.format,
        width: converted.width,
        height: converted.height,
        resolutionX: converted.resolution?.x ?? null,
        resolutionY: converted.resolution?.y ?? null,
        resolutionUnit: converted.resolution?.unit ?? null,
        magnification: converted.magnification,
        scannedIn: converted.scannedIn,
        scannedAt: converted.scannedAt,
        thumbnailKey: stored.thumbnailKey,
        conversionProgress: null,
        processErrorCode: null,
        processErrorMessage: null,
      })
      .where(eq(images.id, imageId));
    const added = stored.layers.reduce((sum, layer) => sum + layer.size, 0);
    const pyramidal = added - (previous?.bytes ?? 0);
    await adjustUsage(
      tx,
      image.ownerOrganizationId,
      { original: 0, pyramidal: Math.abs(pyramidal), attachment: 0 },
      pyramidal < 0 ? -1 : 1,
    );
    return shareConversion(tx, imageId);
  });
}

/** -101 for an image whose conversion was given up because its worker died on every attempt. */
export async function markConversionLost(db: Db, imageId: string): Promise<void> {
  await markFailed(
    db,
    imageId,
    PROCESS_ERROR_CODES.pleaseReprocess,
    `${IMAGE_MESSAGES.pleaseReprocess}: ${WORKER_LOST}`,
  );
}

async function markFailed(db: Db, imageId: string, code: number, message: string): Promise<void> {
  await db
    .update(images)
    .set({ status: 'process_failed', processErrorCode: code, processErrorMessage: message, conversionProgress: null })
    .where(and(eq(images.id, imageId), eq(images.status, 'processing')));
}
