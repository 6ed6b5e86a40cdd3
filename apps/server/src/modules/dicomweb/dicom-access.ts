import { IMAGE_MESSAGES } from '@pathology/contract';
import { eq } from 'drizzle-orm';
import type { Caller } from '../../auth/caller.ts';
import type { CapabilitiesService } from '../../auth/capabilities/index.ts';
import type { Db } from '../../db/client.ts';
import { images } from '../../db/schema/index.ts';
import { HttpError } from '../../http/http-error.ts';
import { isUuid } from '../../http/ids.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import type { OriginalSource } from '../iiif/original-source.ts';
import type { PyramidCache } from '../iiif/pyramid-cache.ts';
import { createTileCache } from '../iiif/tile-cache.ts';
import { findSlide, loadSlide, type LoadedSlide, type SlideRow } from './dicom-slide.ts';

/** How long a caller's "may see" answer is reused: a viewer asks hundreds of frames a minute (as layer-access.ts). */
const ACCESS_TTL_MS = 30_000;
/** Slides kept loaded: their pyramids' directories are in the pyramid cache already, this keeps the pictures. */
const MAX_LOADED = 64;
const MAX_REMEMBERED = 10_000;
/** The originals' own tiles that frames of converting slides are cut from: a viewer's next frames share them. */
const ORIGINAL_TILE_BYTES = 32 * 1024 * 1024;

export interface DicomAccessDeps {
  db: Db;
  blobs: BlobStore;
  pyramids: PyramidCache;
  originals: OriginalSource;
  capabilities: Pick<CapabilitiesService, 'requireCaseVisible' | 'requireCaseCapability'>;
}

/**
 * Opens a slide as DICOM for a caller: 404 when the image does not exist or its case is invisible (as everywhere),
 * 403 for an export without the right to download drawings (whoever may take the drawings away may take the
 * slide), 409 while the image is neither converted nor viewable from its original (and, for an export, until it is
 * converted).
 */
export function createDicomAccess(deps: DicomAccessDeps) {
  const slideDeps = { ...deps, originalTiles: createTileCache(ORIGINAL_TILE_BYTES) };
  const loaded = new Map<string, Promise<LoadedSlide>>();
  const remembered = new Map<string, { slide: Promise<LoadedSlide>; until: number }>();

  /** A slide's DICOM form, made once per pyramid (a reprocess writes a new one, so an entry never goes stale). */
  function load(row: SlideRow): Promise<LoadedSlide> {
    const key = `${row.imageId}:${row.pyramidKey}`;
    const hit = loaded.get(key);
    if (hit != null) return hit;
    const loading = loadSlide(slideDeps, row);
    loading.catch(() => loaded.delete(key));
    if (loaded.size >= MAX_LOADED) loaded.delete(loaded.keys().next().value!);
    loaded.set(key, loading);
    return loading;
  }

  async function open(caller: Caller, imageId: string, right: 'view' | 'export'): Promise<LoadedSlide> {
    if (!isUuid(imageId)) throw HttpError.notFound();
    const [image] = await deps.db.select({ caseId: images.caseId }).from(images).where(eq(images.id, imageId));
    if (image == null) throw HttpError.notFound();
    if (right === 'export') await deps.capabilities.requireCaseCapability(caller, image.caseId, 'canDownloadDrawings');
    else await deps.capabilities.requireCaseVisible(caller, image.caseId);
    const row = await findSlide(deps.db, imageId, right === 'export');
    if (row == null) throw HttpError.conflict(IMAGE_MESSAGES.imageNotAvailable);
    return load(row);
  }

  return {
    load,
    forExport: (caller: Caller, imageId: string) => open(caller, imageId, 'export'),
    /** Remembered per account and image for ACCESS_TTL_MS: a revoked right stops working within that time. */
    forViewing(caller: Caller, imageId: string, now = Date.now()): Promise<LoadedSlide> {
      const key = `${caller.accountId}:${imageId}`;
      const hit = remembered.get(key);
      if (hit != null && hit.until > now) return hit.slide;
      const slide = open(caller, imageId, 'view');
      slide.catch(() => remembered.delete(key));
      if (remembered.size >= MAX_REMEMBERED) remembered.clear();
      remembered.set(key, { slide, until: now + ACCESS_TTL_MS });
      return slide;
    },
  };
}

export type DicomAccess = ReturnType<typeof createDicomAccess>;
