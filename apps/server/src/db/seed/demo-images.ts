import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { imageBlobKeys } from '../../modules/images/image-blobs.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import { images } from '../schema/index.ts';
import { renderDemoSlide } from './demo-slide.ts';
import type { DemoImageAttacher } from './types.ts';

/**
 * Newest cases of each demo group that get the synthetic slide: the default case list (the current
 * group, newest first) then opens on cases with a slide for every demo account, and the whole demo
 * still converts in seconds.
 */
const SLIDES_PER_GROUP = 2;

/** The newest `count` cases of every owning group. */
function newestOfEachGroup<T extends { ownerOrganizationId: string; createdAt: Date }>(
  cases: readonly T[],
  count: number,
): T[] {
  const byGroup = new Map<string, T[]>();
  for (const seeded of cases) {
    const owned = byGroup.get(seeded.ownerOrganizationId) ?? [];
    owned.push(seeded);
    byGroup.set(seeded.ownerOrganizationId, owned);
  }
  return [...byGroup.values()].flatMap((owned) =>
    owned.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime()).slice(0, count),
  );
}

/**
 * How long the other demo slides wait for the first one's conversion before converting on their own: only if it
 * never commits (the first image deleted, its conversion failed), as a fresh start converts in seconds.
 */
export const DEMO_SHARE_FALLBACK_SECONDS = 300;

/** A conversion to queue once the seed has committed. */
export interface DemoConversion {
  imageId: string;
  startAfterSeconds?: number;
}

/**
 * Gives the newest demo cases of every group the synthetic slide as an uploaded image. Every demo image names
 * the same stored original, so the slide is converted once: the first image's conversion is given to the others
 * when it commits (shared-conversion.ts). The rows are written in the seed's transaction; their conversions can
 * only be queued after it commits, so they are kept for `conversions()`.
 */
export function demoImageAttacher(blobs: BlobStore): {
  attach: DemoImageAttacher;
  conversions: () => DemoConversion[];
} {
  const imageIds: string[] = [];
  return {
    conversions: () =>
      imageIds.map((imageId, index) =>
        index === 0 ? { imageId } : { imageId, startAfterSeconds: DEMO_SHARE_FALLBACK_SECONDS },
      ),
    async attach(tx, cases) {
      const slide = await renderDemoSlide(20_260_401);
      let originalKey: string | null = null;
      for (const seeded of newestOfEachGroup(cases, SLIDES_PER_GROUP)) {
        const id = randomUUID();
        if (originalKey == null) {
          originalKey = imageBlobKeys.original(id);
          await blobs.put(originalKey, Readable.from([slide]), { size: slide.length, contentType: 'image/tiff' });
        }
        await tx.insert(images).values({
          id,
          caseId: seeded.id,
          uploadAccountId: seeded.createdByAccountId,
          filename: `${seeded.caseNumber}-HE.tif`,
          displayName: `${seeded.caseNumber} H&E (demo)`,
          status: 'uploaded',
          size: slide.length,
          organ: seeded.organ,
          specimenType: seeded.specimenType,
          originalKey,
          createdAt: seeded.createdAt,
        });
        imageIds.push(id);
      }
    },
  };
}
