import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { imageBlobKeys } from '../../modules/images/image-blobs.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import { images } from '../schema/index.ts';
import { renderDemoSlide } from './demo-slide.ts';
import type { DemoImageAttacher } from './types.ts';

/** How many demo cases get the synthetic slide: enough to browse, few enough to convert in seconds. */
const CASES_WITH_SLIDES = 4;

/**
 * Gives the first demo cases the synthetic slide as an uploaded image. The rows are written in the
 * seed's transaction; their conversion can only be queued after it commits, so the ids are kept
 * for `queued()`.
 */
export function demoImageAttacher(blobs: BlobStore): { attach: DemoImageAttacher; queued: () => string[] } {
  const imageIds: string[] = [];
  return {
    queued: () => [...imageIds],
    async attach(tx, cases) {
      const slide = await renderDemoSlide(20_260_401);
      for (const seeded of cases.slice(0, CASES_WITH_SLIDES)) {
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
