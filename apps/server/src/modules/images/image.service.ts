import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  IMAGE_MESSAGES,
  PROCESS_ERROR_CODES,
  type CopyImageRequestSchema,
  type Image,
  type ImageDataQuerySchema,
  type ImageSearchRequestSchema,
  type ImageSearchResponse,
  type ImageStatus,
  type UpdateImageRequest,
} from '@pathology/contract';
import { and } from 'drizzle-orm';
import type { z } from 'zod';
import type { Caller } from '../../auth/caller.ts';
import { visibleCasesCondition, type CapabilitiesService } from '../../auth/capabilities/index.ts';
import type { Db } from '../../db/client.ts';
import { parseByteRange, type ByteRange } from '../../http/byte-range.ts';
import { HttpError } from '../../http/http-error.ts';
import { isUuid } from '../../http/ids.ts';
import { BlobNotFoundError, type BlobStore } from '../../storage/blob-store.ts';
import { sweepImageBlobs, unreferencedKeys } from './image-blobs.ts';
import { imageQueryCondition } from './image-search.query.ts';
import { createPredictionRepository, toPrediction } from '../predictions/prediction.repository.ts';
import { createImageViews } from './image-view.ts';
import { createImageRepository, type ImageChanges } from './image.repository.ts';

type CopyInput = z.output<typeof CopyImageRequestSchema>;
type DataType = z.output<typeof ImageDataQuerySchema>['type'];
type SearchInput = z.output<typeof ImageSearchRequestSchema>;

interface Deps {
  db: Db;
  blobs: BlobStore;
  capabilities: Pick<CapabilitiesService, 'requireCaseVisible' | 'requireCaseCapability'>;
  /** Queues the conversion of a stored image. */
  queueConversion: (imageId: string) => Promise<void>;
  /** Whether the image's conversion job waits or runs on a live worker. */
  conversionAlive: (imageId: string) => Promise<boolean>;
  /** The thumbnail of an image still converting, cut from its original; null when it is not served from one. */
  earlyThumbnail?: (imageId: string) => Promise<{ key: string; body: Buffer } | null>;
}

/** A queued image counts too: its job may have been lost, and a new one is the only way out. */
const REPROCESSABLE: readonly ImageStatus[] = ['available', 'process_failed', 'uploaded'];

/** The status of a copy, or null when an image in this state has nothing to copy yet. */
export function copiedStatus(source: ImageStatus): ImageStatus | null {
  switch (source) {
    case 'available':
    case 'process_failed':
      return source;
    // The copy (sharing the original) gets a conversion of its own; a source's conversion that commits first is
    // given to it instead (shared-conversion.ts), and its own then finds nothing to do.
    case 'uploaded':
    case 'processing':
      return 'uploaded';
    case 'reserved':
    case 'upload_failed':
    case 'deleting':
      return null;
  }
}

/** A blob to send: the whole of it, or the one range asked for. */
export interface BlobDownload {
  stream: Readable;
  /** Bytes of the whole blob. */
  size: number;
  range: ByteRange | null;
  filename: string;
}

/** Entity tag of an immutable blob: each conversion writes under a fresh key, so the key names the content. */
const etagOf = (key: string) => `"${createHash('sha256').update(key).digest('base64url').slice(0, 27)}"`;

function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch == null) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === etag;
  });
}

async function open(blobs: BlobStore, key: string, range?: ByteRange): Promise<Readable> {
  try {
    return await blobs.get(key, range);
  } catch (error) {
    // A row whose file is missing (crash between writes) is an image without that picture, not a 500.
    if (error instanceof BlobNotFoundError) throw HttpError.notFound(IMAGE_MESSAGES.imageNotAvailable);
    throw error;
  }
}

/**
 * Image rules (part 2 §6, §7): reading needs a visible case; changing, deleting and reprocessing
 * need edit; the original needs download; a copy needs download at the source and upload at the
 * destination. Every function asks the capabilities module first.
 */
export function createImageService({
  db,
  blobs,
  capabilities,
  queueConversion,
  conversionAlive,
  earlyThumbnail,
}: Deps) {
  const images = createImageRepository(db);
  const views = createImageViews(images);

  /** The image's case; a malformed or unknown id names nothing (404). */
  async function caseOf(imageId: string): Promise<string> {
    const caseId = isUuid(imageId) ? await images.findCaseId(imageId) : undefined;
    if (caseId == null) throw HttpError.notFound();
    return caseId;
  }

  async function removeBlobs(imageId: string, keys: readonly string[]): Promise<void> {
    // A copy's keys sit under its source's folder, so the folder sweep alone would miss them.
    await blobs.deleteMany(await unreferencedKeys(db, keys));
    await sweepImageBlobs(db, blobs, imageId);
  }

  return {
    /** With its predictions, newest first, for those who may view predictions (part 2 §3). */
    async get(caller: Caller, imageId: string): Promise<Image> {
      const visible = await capabilities.requireCaseVisible(caller, await caseOf(imageId));
      const image = await views.one(caller, imageId);
      if (!visible.capabilities.canViewPrediction) return image;
      const found = (await createPredictionRepository(db).forImage(imageId)).map(toPrediction);
      return {
        ...image,
        predictions: found,
        prediction: found.find((prediction) => prediction.modelName === image.modelName) ?? found[0] ?? null,
      };
    },

    /** PATCH images/{id}: the AI model and the organ (part 1 §7 "Set AI model on image"); needs edit. */
    async update(caller: Caller, imageId: string, patch: UpdateImageRequest): Promise<Image> {
      await capabilities.requireCaseCapability(caller, await caseOf(imageId), 'canEdit');
      const changes: ImageChanges = {};
      if (patch.modelName !== undefined) changes.modelName = patch.modelName;
      if (patch.organ !== undefined) changes.organ = patch.organ;
      await images.updateImage(imageId, changes);
      return views.one(caller, imageId);
    },

    /** DELETE images/{id}: rows and usage in one transaction, then the blobs nothing else references. */
    async delete(caller: Caller, imageId: string): Promise<void> {
      await capabilities.requireCaseCapability(caller, await caseOf(imageId), 'canEdit');
      const deleted = await images.deleteImage(imageId);
      if (deleted == null) throw HttpError.notFound();
      await removeBlobs(imageId, deleted.blobKeys);
    },

    /** POST images/{id}/copy: new rows sharing the source's blobs; 409 when the destination has the filename. */
    async copy(caller: Caller, imageId: string, input: CopyInput): Promise<{ id: string; filename: string }> {
      await capabilities.requireCaseCapability(caller, await caseOf(imageId), 'canDownloadImage');
      await capabilities.requireCaseCapability(caller, input.dstCaseId, 'canUploadImage');
      const outcome = await images.copyImage(imageId, {
        caseId: input.dstCaseId,
        accountId: caller.accountId,
        copyPrediction: input.copyPrediction,
        statusOf: copiedStatus,
      });
      switch (outcome.status) {
        case 'gone':
          throw HttpError.notFound();
        case 'duplicate':
          throw HttpError.conflict(IMAGE_MESSAGES.duplicateFile);
        case 'not_copyable':
          throw HttpError.conflict(IMAGE_MESSAGES.imageNotAvailable);
        case 'copied':
          if (outcome.imageStatus === 'uploaded') await queueConversion(outcome.id);
          return { id: outcome.id, filename: outcome.filename };
      }
    },

    /** GET images/{id}/cache/original: the uploaded file, whole or one range; needs download. */
    async original(
      caller: Caller,
      imageId: string,
      rangeHeader?: string,
    ): Promise<BlobDownload | { unsatisfiable: number }> {
      await capabilities.requireCaseCapability(caller, await caseOf(imageId), 'canDownloadImage');
      const [row] = await images.findImages([imageId]);
      const stat = row?.originalKey == null ? null : await blobs.stat(row.originalKey);
      if (row?.originalKey == null || stat == null) throw HttpError.notFound(IMAGE_MESSAGES.imageNotAvailable);
      const range = parseByteRange(rangeHeader, stat.size);
      if (range === 'unsatisfiable') return { unsatisfiable: stat.size };
      const stream = await open(blobs, row.originalKey, range ?? undefined);
      return { stream, size: stat.size, range, filename: row.filename };
    },

    /**
     * GET images/{id}/data: the thumbnail (SMALL) or a scanner side picture; a visible case suffices,
     * as the case list shows thumbnails. `stream` is null when the caller's copy is current.
     */
    async data(
      caller: Caller,
      imageId: string,
      type: DataType,
      ifNoneMatch?: string,
    ): Promise<{ etag: string; stream: Readable | null; fromOriginal: boolean }> {
      await capabilities.requireCaseVisible(caller, await caseOf(imageId));
      let key: string | null | undefined;
      if (type === 'SMALL') key = (await images.findImages([imageId]))[0]?.thumbnailKey;
      else key = await images.findAssociatedKey(imageId, type === 'LABEL' ? 'label' : 'macro');
      // Until its conversion has made one, a slide served from its original has its thumbnail cut from it.
      const early = type === 'SMALL' && key == null ? await earlyThumbnail?.(imageId) : null;
      if (early != null) {
        const etag = etagOf(early.key);
        return {
          etag,
          stream: matchesEtag(ifNoneMatch, etag) ? null : Readable.from([early.body]),
          fromOriginal: true,
        };
      }
      if (key == null) throw HttpError.notFound(IMAGE_MESSAGES.imageNotAvailable);
      const etag = etagOf(key);
      if (matchesEtag(ifNoneMatch, etag)) return { etag, stream: null, fromOriginal: false };
      return { etag, stream: await open(blobs, key), fromOriginal: false };
    },

    /** PUT images/{id}/reprocess: back to the queue; the old layers serve until the new conversion replaces them. */
    async reprocess(caller: Caller, imageId: string): Promise<Image> {
      await capabilities.requireCaseCapability(caller, await caseOf(imageId), 'canEdit');
      // A conversion whose worker died leaves the image `processing` with no job alive to finish it.
      const from = (await conversionAlive(imageId)) ? REPROCESSABLE : [...REPROCESSABLE, 'processing' as const];
      if (!(await images.requeue(imageId, from))) {
        const [row] = await images.findImages([imageId]);
        if (row == null) throw HttpError.notFound();
        throw HttpError.conflict(
          row.processErrorCode === PROCESS_ERROR_CODES.unsupportedData
            ? IMAGE_MESSAGES.unsupportedDataNotReprocessable
            : IMAGE_MESSAGES.notReprocessable,
        );
      }
      await queueConversion(imageId);
      return views.one(caller, imageId);
    },

    /** POST images/search: images of the cases the caller may see that match every expression. */
    async search(caller: Caller, request: SearchInput): Promise<ImageSearchResponse> {
      const where = and(visibleCasesCondition(caller), imageQueryCondition(request.query))!;
      const { ids, total } = await images.searchPage(where, request.order, request.page, request.limit);
      return { data: await views.many(caller, ids), total };
    },
  };
}

export type ImageService = ReturnType<typeof createImageService>;
