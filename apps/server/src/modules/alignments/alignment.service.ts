import { MESSAGES, type AlignmentPointPair, type ImageAlignment } from '@pathology/contract';
import type { Caller } from '../../auth/caller.ts';
import type { CapabilitiesService } from '../../auth/capabilities/index.ts';
import type { StoredPointPair } from '../../db/schema/index.ts';
import { HttpError } from '../../http/http-error.ts';
import { isUuid } from '../../http/ids.ts';
import type { AlignmentRepository, AlignmentRow } from './alignment.repository.ts';

interface Deps {
  alignments: AlignmentRepository;
  capabilities: Pick<CapabilitiesService, 'requireCaseVisible'>;
}

/** The pair in stored order, and whether the path's image is the stored pair's second (points swap sides). */
function storedPair(imageId: string, otherImageId: string) {
  const swapped = otherImageId < imageId;
  return { a: swapped ? otherImageId : imageId, b: swapped ? imageId : otherImageId, swapped };
}

function toAlignment(row: AlignmentRow, imageId: string, otherImageId: string, swapped: boolean): ImageAlignment {
  return {
    imageId,
    otherImageId,
    points: row.points.map(({ a, b }) => (swapped ? { image: b, other: a } : { image: a, other: b })),
    updatedAt: row.updatedAt.toISOString(),
    updatedByName: row.updatedByName,
  };
}

/**
 * Point alignments of two slides for the comparison view (issue 31). Whoever may view both images may read, save
 * and remove the pair's alignment: it changes no slide, only how the two are shown side by side. An image out of
 * sight answers 404, whichever side of the pair it is on; a visible pair without an alignment reads as null.
 */
export function createAlignmentService({ alignments, capabilities }: Deps) {
  async function requireViewable(caller: Caller, imageId: string): Promise<void> {
    const caseId = isUuid(imageId) ? await alignments.caseOf(imageId) : undefined;
    if (caseId == null) throw HttpError.notFound();
    await capabilities.requireCaseVisible(caller, caseId);
  }

  async function requirePair(caller: Caller, imageId: string, otherImageId: string) {
    await requireViewable(caller, imageId);
    await requireViewable(caller, otherImageId);
    if (imageId === otherImageId) throw HttpError.validation({ otherImageId: MESSAGES.alignmentSameImage });
    return storedPair(imageId, otherImageId);
  }

  return {
    async get(caller: Caller, imageId: string, otherImageId: string): Promise<ImageAlignment | null> {
      const { a, b, swapped } = await requirePair(caller, imageId, otherImageId);
      const row = await alignments.find(a, b);
      return row ? toAlignment(row, imageId, otherImageId, swapped) : null;
    },

    async save(
      caller: Caller,
      imageId: string,
      otherImageId: string,
      points: readonly AlignmentPointPair[],
    ): Promise<ImageAlignment> {
      const { a, b, swapped } = await requirePair(caller, imageId, otherImageId);
      const stored: StoredPointPair[] = points.map(({ image, other }) =>
        swapped ? { a: other, b: image } : { a: image, b: other },
      );
      await alignments.save(a, b, stored, caller.accountId);
      return toAlignment((await alignments.find(a, b))!, imageId, otherImageId, swapped);
    },

    async delete(caller: Caller, imageId: string, otherImageId: string): Promise<void> {
      const { a, b } = await requirePair(caller, imageId, otherImageId);
      if (!(await alignments.delete(a, b))) throw HttpError.notFound();
    },
  };
}

export type AlignmentService = ReturnType<typeof createAlignmentService>;
