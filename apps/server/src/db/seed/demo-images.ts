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
 * Gives the newest demo cases of every group the synthetic slide as an uploaded image. The rows
 * are written in the seed's transaction; their conversion can only be queued after it commits, so
 * the ids are kept for `queued()`.
 */
export function demoImageAttacher(blobs: BlobStore): { attach: DemoImageAttacher; queued: () => string[] } {
  const imageIds: string[] = [];
  return {
    queued: () => [...imageIds],
    async attach(tx, cases) {
      const slide = await renderDemoSlide(20_260_401);
      for (const seeded of newestOfEachGroup(cases, SLIDES_PER_GROUP)) {
        const id = randomUUID();
        const key = imageBlobKeys.original(id);
        await blobs.put(key, Readable.from([slide]), { size: slide.length, contentType: 'image/tiff' });
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
          originalKey: key,
          createdAt: seeded.createdAt,
        });
        imageIds.push(id);
      }
    },
  };
}
