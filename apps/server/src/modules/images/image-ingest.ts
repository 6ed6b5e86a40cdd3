import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline as pipelineTo } from 'node:stream/promises';
import { pipeline } from 'node:stream';
import { IMAGE_MESSAGES, ImageUploadQuerySchema, type ImageUploadResponse } from '@pathology/contract';
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Caller } from '../../auth/caller.ts';
import type { CapabilitiesService } from '../../auth/capabilities/index.ts';
import type { Db } from '../../db/client.ts';
import { images } from '../../db/schema/index.ts';
import { HttpError } from '../../http/http-error.ts';
import { InvalidVsiZipError, validateVsiZip, zipHoldsDicom, type ZipSource } from '../../imaging/index.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import { StorageFailure, storageFailure } from '../../storage/storage-failure.ts';
import { addUsageWithinLimit, assertStorageRoom } from '../cases/storage-quota.ts';
import { imageBlobKeys, unreferencedKeys } from './image-blobs.ts';
import { HEAD_BYTES } from '../../http/head-check.ts';
import { checkImageFile, checkImageHead, imageContentCheck, imageExtension } from './upload-checks.ts';

export type ImageUploadRequest = z.output<typeof ImageUploadQuerySchema>;

/** An upload that passed every check that needs no bytes: the caller may add images to the case, and the name is free. */
export interface PreparedImageUpload {
  imageId: string;
  caller: Caller;
  request: ImageUploadRequest;
  extension: string;
  ownerOrganizationId: string;
}

interface Deps {
  db: Db;
  blobs: BlobStore;
  capabilities: Pick<CapabilitiesService, 'requireCaseCapability'>;
  /**
   * Queues the conversion of an image about to be recorded, to start on its own after a while; the function it
   * gives starts it now. Called before the row is written, so no stop of the process between the two loses it.
   */
  reserveConversion: (imageId: string) => Promise<() => Promise<void>>;
  /** Local scratch folder (VSI zips are validated from a file, as a zip's directory sits at its end). */
  scratchDir: string;
}

/** A storage write that failed for want of space or a writable storage, as the caller's 507 or 503. */
function storing<T>(write: Promise<T>): Promise<T> {
  return write.catch((error: unknown) => {
    throw storageFailure(error) ?? error;
  });
}

/** A zip's central directory sits at its end: 422 when it is not a VSI package, else the .vsi file's name. */
function vsiNameOf(zip: string | ZipSource): Promise<string> {
  return validateVsiZip(zip).then(
    ({ vsiName }) => vsiName,
    (error: unknown) => {
      throw error instanceof InvalidVsiZipError ? new HttpError(422, IMAGE_MESSAGES.invalidVsiZip) : error;
    },
  );
}

/** A zip of one DICOM slide's instances keeps the upload's name; any other zip must be a VSI package. */
async function zipDisplayName(zip: string | ZipSource, filename: string): Promise<string> {
  if (await zipHoldsDicom(zip).catch(() => false)) return filename;
  return vsiNameOf(zip);
}

function isUniqueViolation(error: unknown): boolean {
  const cause = error instanceof Error && 'cause' in error ? error.cause : error;
  return typeof cause === 'object' && cause != null && 'code' in cause && cause.code === '23505';
}

/**
 * Takes an image upload from its first byte to a queued conversion. The body streams into the
 * blob store (constant memory); the image row is written only once every byte is stored and
 * checked, so a cut connection or a rejected file leaves neither a row nor a blob.
 */
export function createImageIngest({ db, blobs, capabilities, reserveConversion, scratchDir }: Deps) {
  async function assertNameFree(caseId: string, filename: string): Promise<void> {
    const [taken] = await db
      .select({ id: images.id })
      .from(images)
      .where(and(eq(images.caseId, caseId), eq(images.filename, filename)))
      .limit(1);
    if (taken != null) throw HttpError.conflict(IMAGE_MESSAGES.duplicateFile);
  }

  /** Streams a zip to a scratch file, checks it is a DICOM slide or a VSI package, then stores it; returns its name. */
  async function storeZip(
    key: string,
    body: Readable,
    size: number | undefined,
    filename: string,
  ): Promise<{ size: number; name: string }> {
    await fs.mkdir(scratchDir, { recursive: true });
    const scratch = path.join(scratchDir, `${randomUUID()}.zip`);
    try {
      await pipelineTo(body, createWriteStream(scratch, { flags: 'wx' }));
      const { size: written } = await fs.stat(scratch);
      if (size != null && written !== size) throw new HttpError(400, IMAGE_MESSAGES.uploadIncomplete);
      const name = await zipDisplayName(scratch, filename);
      const stored = await blobs.put(key, createReadStream(scratch), { size: written, contentType: 'application/zip' });
      return { size: stored.size, name };
    } finally {
      await fs.rm(scratch, { force: true });
    }
  }

  /**
   * Stores the bytes with `store` and records the image as `uploaded`. The row is written only once every byte
   * is stored and checked; a failure after the store deletes the blob again.
   */
  async function record(
    prepared: PreparedImageUpload,
    store: (key: string) => Promise<{ size: number; displayName: string }>,
  ): Promise<ImageUploadResponse> {
    const { imageId, request } = prepared;
    const key = imageBlobKeys.original(imageId);
    let startConversion: () => Promise<void>;
    try {
      const stored = await store(key);
      if (stored.size === 0) throw new HttpError(422, IMAGE_MESSAGES.emptyFile);
      // A job whose row is never written (the insert failed) finds no image and ends at once.
      startConversion = await reserveConversion(imageId);
      await db.transaction(async (tx) => {
        await tx.insert(images).values({
          id: imageId,
          caseId: request.caseId,
          uploadAccountId: prepared.caller.accountId,
          filename: request.filename,
          displayName: stored.displayName,
          status: 'uploaded',
          size: stored.size,
          organ: request.metadata.organ ?? null,
          specimenType: request.metadata.specimenType ?? null,
          modelName: request.metadata.modelName ?? null,
          originalKey: key,
        });
        await addUsageWithinLimit(tx, prepared.ownerOrganizationId, {
          original: stored.size,
          pyramidal: 0,
          attachment: 0,
        });
      });
    } catch (error) {
      // A put that failed stored nothing (and a storage that fails would fail the delete too).
      if (!(error instanceof StorageFailure)) await blobs.delete(key);
      if (isUniqueViolation(error)) throw HttpError.conflict(IMAGE_MESSAGES.duplicateFile);
      throw error;
    }
    await startConversion();
    return { id: imageId, filename: request.filename };
  }

  return {
    /**
     * The checks made before any byte is read; `announcedBytes` is the declared length, when there is one.
     * `imageId` is the id an upload decided beforehand (a resumable upload completed at its image's key).
     */
    async prepare(
      caller: Caller,
      request: ImageUploadRequest,
      announcedBytes?: number,
      imageId: string = randomUUID(),
    ): Promise<PreparedImageUpload> {
      const extension = imageExtension(request.filename);
      const access = await capabilities.requireCaseCapability(caller, request.caseId, 'canUploadImage');
      await assertNameFree(request.caseId, request.filename);
      await assertStorageRoom(db, access.case.ownerOrganization.id, announcedBytes);
      return {
        imageId,
        caller,
        request,
        extension,
        ownerOrganizationId: access.case.ownerOrganization.id,
      };
    },

    /** Stores the body of a prepared upload and records the image as `uploaded`; `size` is the announced length. */
    async receive(prepared: PreparedImageUpload, body: Readable, size?: number): Promise<ImageUploadResponse> {
      const { request, extension } = prepared;
      return record(prepared, async (key) => {
        if (extension === '.zip') {
          const zip = await storing(storeZip(key, body, size, request.filename));
          return { size: zip.size, displayName: request.displayName ?? zip.name };
        }
        // pipeline destroys the check when the body errors or ends early (a cut connection), so put() fails.
        const checked = pipeline(body, imageContentCheck(extension), () => {});
        const stored = await storing(blobs.put(key, checked, { size }));
        return { size: stored.size, displayName: request.displayName ?? request.filename };
      });
    },

    /** Whether the image's row was written: its upload's bytes were stored and checked. */
    async recorded(imageId: string): Promise<boolean> {
      const [row] = await db.select({ id: images.id }).from(images).where(eq(images.id, imageId));
      return row != null;
    },

    /**
     * Deletes the original stored for `imageId` when no image refers to it: a resumable upload completed at the
     * image's key whose process died before recording the image, or whose image was refused.
     */
    async discardUnrecorded(imageId: string): Promise<void> {
      await blobs.deleteMany(await unreferencedKeys(db, [imageBlobKeys.original(imageId)]));
    },

    /**
     * As receive, for a file received whole beforehand (a resumable upload): checked where it lies and moved
     * into the blob store, which renames it when it can (no copy of the bytes). The file is gone once stored.
     */
    async receiveFile(prepared: PreparedImageUpload, file: string, size: number): Promise<ImageUploadResponse> {
      const { request, extension } = prepared;
      return record(prepared, async (key) => {
        let displayName = request.displayName ?? request.filename;
        if (extension === '.zip') {
          displayName = request.displayName ?? (await zipDisplayName(file, request.filename));
        } else {
          await checkImageFile(file, extension);
        }
        const contentType = extension === '.zip' ? 'application/zip' : undefined;
        const stored = await storing(blobs.putFile(key, file, { size, contentType }));
        return { size: stored.size, displayName };
      });
    },

    /**
     * As receiveFile, for bytes already stored at the image's original key (a resumable upload completed in the
     * bucket): checked where they lie by ranged reads, never copied. A refused file is deleted.
     */
    async receiveStored(prepared: PreparedImageUpload, size: number): Promise<ImageUploadResponse> {
      const { request, extension } = prepared;
      return record(prepared, async (key) => {
        const stored = await storing(blobs.stat(key));
        if (stored == null || stored.size !== size) throw new HttpError(400, IMAGE_MESSAGES.uploadIncomplete);
        if (size === 0) throw new HttpError(422, IMAGE_MESSAGES.emptyFile);
        const read = (start: number, end: number) => storing(blobs.get(key, { start, end: end - 1 }));
        let displayName = request.displayName ?? request.filename;
        if (extension === '.zip') {
          displayName = request.displayName ?? (await zipDisplayName({ size, read }, request.filename));
        } else {
          checkImageHead(Buffer.concat(await (await read(0, Math.min(size, HEAD_BYTES))).toArray()), extension);
        }
        return { size, displayName };
      });
    },
  };
}

export type ImageIngest = ReturnType<typeof createImageIngest>;
