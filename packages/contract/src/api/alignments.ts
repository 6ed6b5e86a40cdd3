import { z } from 'zod';

/** A point on a slide in full-resolution image pixels: [x, y]. */
export const ImagePointSchema = z.tuple([z.number().finite(), z.number().finite()]);
export type ImagePoint = z.infer<typeof ImagePointSchema>;

/** One matching pair: the same structure clicked on the image of the path (`image`) and on the other one. */
export const AlignmentPointPairSchema = z.object({ image: ImagePointSchema, other: ImagePointSchema });
export type AlignmentPointPair = z.infer<typeof AlignmentPointPairSchema>;

/** Two pairs give a similarity (shift, turn, zoom), three an affine transform (also shear and stretch). */
export const MIN_ALIGNMENT_POINTS = 2;
export const MAX_ALIGNMENT_POINTS = 3;

export const AlignmentPointsSchema = z
  .array(AlignmentPointPairSchema)
  .min(MIN_ALIGNMENT_POINTS)
  .max(MAX_ALIGNMENT_POINTS);

/**
 * GET images/{id}/alignments/{otherId}: the point alignment saved for the pair, with the points seen from the
 * path's image (`image` on {id}, `other` on {otherId}), whichever of the two it was saved from.
 */
export const ImageAlignmentSchema = z.object({
  imageId: z.uuid(),
  otherImageId: z.uuid(),
  points: AlignmentPointsSchema,
  updatedAt: z.iso.datetime(),
  updatedByName: z.string().nullable(),
});
export type ImageAlignment = z.infer<typeof ImageAlignmentSchema>;

/**
 * What GET images/{id}/alignments/{otherId} answers: the pair's alignment, or null when none is saved. A pair without
 * one is the usual case, not an error (a 404 stays for an image out of sight).
 */
export const ImageAlignmentAnswerSchema = ImageAlignmentSchema.nullable();

/** PUT images/{id}/alignments/{otherId}: replaces the pair's alignment. */
export const SaveImageAlignmentRequestSchema = z.object({ points: AlignmentPointsSchema });
export type SaveImageAlignmentRequest = z.input<typeof SaveImageAlignmentRequestSchema>;
