import { z } from 'zod';

/** `uploaded` is shown as "Queued"; `upload_failed` as "Failed to Upload". */
export const IMAGE_STATUSES = [
  'reserved',
  'uploaded',
  'processing',
  'available',
  'process_failed',
  'deleting',
  'upload_failed',
] as const;
export const ImageStatusSchema = z.enum(IMAGE_STATUSES);
export type ImageStatus = z.infer<typeof ImageStatusSchema>;

/** Stored in images.process_error_code when conversion fails. */
export const PROCESS_ERROR_CODES = {
  /** The image contains unsupported data; reprocessing will not help. */
  unsupportedData: -100,
  /** A transient failure; the user is asked to reprocess the image. */
  pleaseReprocess: -101,
} as const;
export type ProcessErrorCode = (typeof PROCESS_ERROR_CODES)[keyof typeof PROCESS_ERROR_CODES];

/** A -100 that is the installation's, not the slide's: once the operator installs OpenSlide, a reprocess converts it. */
export const OPENSLIDE_MISSING_MESSAGE = 'OpenSlide is not installed: apt-get install -y libvips-tools openslide-tools';

/** A conversion that failed on the image's own data: no reprocess of the same original can succeed. */
export function failedForGood(error: { code: number; message: string | null } | null | undefined): boolean {
  return error?.code === PROCESS_ERROR_CODES.unsupportedData && error.message !== OPENSLIDE_MISSING_MESSAGE;
}

export const RESOLUTION_UNITS = ['dpi', 'dpc'] as const;
export const ResolutionUnitSchema = z.enum(RESOLUTION_UNITS);
export type ResolutionUnit = z.infer<typeof ResolutionUnitSchema>;

/** Side images a scanner stores next to the slide itself. */
export const ASSOCIATED_IMAGE_KINDS = ['label', 'macro', 'thumbnail'] as const;
export const AssociatedImageKindSchema = z.enum(ASSOCIATED_IMAGE_KINDS);
export type AssociatedImageKind = z.infer<typeof AssociatedImageKindSchema>;

/** Edge length of every pyramid tile, in pixels. */
export const TILE_SIZE = 512;

/** z-stack position of one layer of a multi-layer image. */
export const ImageLayerMetadataSchema = z.object({
  the_z: z.number().int().nullable(),
  position_z: z.number().nullable(),
  position_z_unit: z.string().nullable(),
});
export type ImageLayerMetadata = z.infer<typeof ImageLayerMetadataSchema>;
