import { MESSAGES, type AlignmentPointPair, type ImageAlignment } from '@pathology/contract';
import type { Caller } from '../../auth/caller.ts';
import type { CapabilitiesService } from '../../auth/capabilities/index.ts';
import type { StoredPointPair } from '../../db/schema/index.ts';
import { HttpError } from '../../http/http-error.ts';
import { isUuid } from '../../http/ids.ts';
import { alignmentPointsProblem } from './alignment-points.ts';
import type { AlignedImage, AlignmentRepository, AlignmentRow } from './alignment.repository.ts';

interface Deps {
  alignments: AlignmentRepository;
  capabilities: Pick<CapabilitiesService, 'requireCaseVisible'>;
}

/** Whether the caller only reads the pair's alignment, or changes it (saves or removes it). */
type Use = 'read' | 'change';

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
 * Point alignments of two slides for the comparison view (issue 31). Whoever may view both images reads the pair's
 * alignment; saving or removing it needs edit rights (canEdit: members and above) on the cases of both (issue 42),
 * since everyone who compares the pair sees the slides placed by it: a read-only viewer or a partner may not change
 * that for the others. An image out of sight answers 404, whichever side of the pair it is on; then a missing right
 * answers 403. A visible pair without an alignment reads as null.
 */
export function createAlignmentService({ alignments, capabilities }: Deps) {
  async function requireImage(caller: Caller, imageId: string): Promise<AlignedImage & { mayChange: boolean }> {
    const image = isUuid(imageId) ? await alignments.imageOf(imageId) : undefined;
    if (image == null) throw HttpError.notFound();
    const access = await capabilities.requireCaseVisible(caller, image.caseId);
    return { ...image, mayChange: access.capabilities.canEdit };
  }

  async function requirePair(caller: Caller, imageId: string, otherImageId: string, use: Use) {
    const image = await requireImage(caller, imageId);
    const other = await requireImage(caller, otherImageId);
    if (use === 'change' && !(image.mayChange && other.mayChange)) throw HttpError.forbidden();
    if (imageId === otherImageId) throw HttpError.validation({ otherImageId: MESSAGES.alignmentSameImage });
    return { ...storedPair(imageId, otherImageId), imageSize: image.size, otherSize: other.size };
  }

  return {
    async get(caller: Caller, imageId: string, otherImageId: string): Promise<ImageAlignment | null> {
      const { a, b, swapped } = await requirePair(caller, imageId, otherImageId, 'read');
      const row = await alignments.find(a, b);
      return row ? toAlignment(row, imageId, otherImageId, swapped) : null;
    },

    async save(
      caller: Caller,
      imageId: string,
      otherImageId: string,
      points: readonly AlignmentPointPair[],
    ): Promise<ImageAlignment> {
      const { a, b, swapped, imageSize, otherSize } = await requirePair(caller, imageId, otherImageId, 'change');
      const problem = alignmentPointsProblem(points, imageSize, otherSize);
      if (problem != null) throw HttpError.validation({ points: problem }, problem);
      const stored: StoredPointPair[] = points.map(({ image, other }) =>
        swapped ? { a: other, b: image } : { a: image, b: other },
      );
      await alignments.save(a, b, stored, caller.accountId);
      return toAlignment((await alignments.find(a, b))!, imageId, otherImageId, swapped);
    },

    async delete(caller: Caller, imageId: string, otherImageId: string): Promise<void> {
      const { a, b } = await requirePair(caller, imageId, otherImageId, 'change');
      if (!(await alignments.delete(a, b))) throw HttpError.notFound();
    },
  };
}

export type AlignmentService = ReturnType<typeof createAlignmentService>;
