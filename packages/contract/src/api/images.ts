import { z } from 'zod';
import { AiModelNameSchema } from '../domain/ai-models.ts';
import { SpecimenTypeSchema } from '../domain/cases.ts';
import {
  AssociatedImageKindSchema,
  ImageLayerMetadataSchema,
  ImageStatusSchema,
  ResolutionUnitSchema,
} from '../domain/images.ts';
import { OrganSchema } from '../domain/organs.ts';
import { SearchOperatorSchema } from './case-search.ts';
import { PredictionSchema } from './predictions.ts';

/** Upload and conversion messages with the spec's wording (part 1 §8); the web translates them by key. */
export const IMAGE_MESSAGES = {
  duplicateFile: 'Duplicate file',
  invalidVsiZip: 'Invalid VSI zip file',
  unknownExtension: 'No file type associated to this extension',
  unsupportedFileType: 'Unsupported file type',
  contentDoesNotMatchExtension: 'The file content does not match its extension',
  invalidFilename: 'Invalid filename',
  emptyFile: 'The file is empty',
  uploadIncomplete: 'The upload ended before the whole file was received',
  /** 423: another request (maybe on another server) is writing the same resumable upload; the client retries. */
  uploadBusy: 'Another request is writing this upload; try again',
  notReprocessable: 'The image cannot be reprocessed in its current state',
  /** 409 for a reprocess of an image that failed with -100: its data is what failed, another conversion would too. */
  unsupportedDataNotReprocessable: 'The image contains unsupported data: reprocessing cannot convert it',
  imageNotAvailable: 'The image is not available yet',
  /** Process error -100 and -101 (part 2 §8). */
  unsupportedData: 'image contains unsupported data',
  pleaseReprocess: 'please reprocess image',
  invalidMetadata: 'Invalid metadata',
  metadataNotJson: 'metadata must be JSON',
} as const;

/** Longest filename accepted for an image or attachment, in characters. */
export const MAX_FILENAME_LENGTH = 255;

/**
 * A bare filename: no folder part, no control characters (NUL included), not "." or "..", and at
 * most MAX_FILENAME_LENGTH characters. Blob keys never contain it, but downloads send it back.
 */
export const UploadFilenameSchema = z
  .string()
  .min(1, IMAGE_MESSAGES.invalidFilename)
  .max(MAX_FILENAME_LENGTH, IMAGE_MESSAGES.invalidFilename)
  .refine(
    // eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses
    (name) => !/[/\\\u0000-\u001f\u007f]/.test(name) && name !== '.' && name !== '..' && name.trim() === name,
    IMAGE_MESSAGES.invalidFilename,
  );

/** What the uploader says about the slide; every member optional. */
export const ImageUploadMetadataSchema = z.object({
  organ: OrganSchema.nullable().optional(),
  specimenType: SpecimenTypeSchema.nullable().optional(),
  modelName: AiModelNameSchema.nullable().optional(),
});
export type ImageUploadMetadata = z.infer<typeof ImageUploadMetadataSchema>;

/** `POST images?caseId&filename&displayName&metadata` with the file as the raw body. */
export const ImageUploadQuerySchema = z.object({
  caseId: z.uuid(),
  filename: UploadFilenameSchema,
  /** Defaults to the filename (to the .vsi name inside a VSI zip). */
  displayName: z.string().trim().min(1).max(MAX_FILENAME_LENGTH).optional(),
  /** JSON text of ImageUploadMetadata. */
  metadata: z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (text == null || text === '') return {};
      try {
        const parsed = ImageUploadMetadataSchema.safeParse(JSON.parse(text));
        if (parsed.success) return parsed.data;
        ctx.addIssue({ code: 'custom', message: parsed.error.issues[0]?.message ?? IMAGE_MESSAGES.invalidMetadata });
      } catch {
        ctx.addIssue({ code: 'custom', message: IMAGE_MESSAGES.metadataNotJson });
      }
      return z.NEVER;
    }),
});
export type ImageUploadQuery = z.input<typeof ImageUploadQuerySchema>;

export const ImageUploadResponseSchema = z.object({ id: z.uuid(), filename: z.string() });
export type ImageUploadResponse = z.infer<typeof ImageUploadResponseSchema>;
/**
 * The header by which a resumable upload's HEAD names the image it was already stored as: the final PATCH's answer
 * was lost (its API process killed after storing), and the client resuming it gets no body to read the id from.
 */
export const UPLOAD_IMAGE_ID_HEADER = 'Upload-Image-Id';

/** Where a viewer reads tiles: a IIIF Image API 2.1 service (info.json under `url`). */
export const TileSourceSchema = z.object({ type: z.literal('iiif_dynamic'), url: z.string() });
export type TileSource = z.infer<typeof TileSourceSchema>;

/** One converted focal plane (part 2 §3 Image layer). */
export const ImageLayerResourceSchema = z.object({
  id: z.uuid(),
  imageId: z.uuid(),
  layerNumber: z.number().int(),
  pyramidalSize: z.number().int(),
  width: z.number().int(),
  height: z.number().int(),
  tileSize: z.number().int(),
  metadata: ImageLayerMetadataSchema.nullable(),
  tileSource: TileSourceSchema,
  createdAt: z.iso.datetime({ offset: true }),
  updatedAt: z.iso.datetime({ offset: true }),
});
export type ImageLayerResource = z.infer<typeof ImageLayerResourceSchema>;

/** The Image entity of part 2 §3, as GET images/{id} returns it. */
export const ImageSchema = z.object({
  id: z.uuid(),
  uploadAccountId: z.uuid().nullable(),
  caseId: z.uuid(),
  filename: z.string(),
  displayName: z.string(),
  status: ImageStatusSchema,
  /** Set when status is process_failed: -100 unsupported data, -101 please reprocess. */
  processError: z.object({ code: z.number().int(), message: z.string().nullable() }).nullable(),
  size: z.number().int(),
  format: z.string().nullable(),
  staining: z.string().nullable(),
  scannedIn: z.string().nullable(),
  scannedAt: z.iso.datetime({ offset: true }).nullable(),
  dimensions: z.object({ width: z.number().int(), height: z.number().int() }).nullable(),
  resolution: z.object({ x: z.number(), y: z.number(), unit: ResolutionUnitSchema }).nullable(),
  magnification: z.number().nullable(),
  organ: z.string().nullable(),
  specimenType: SpecimenTypeSchema.nullable(),
  modelName: z.string().nullable(),
  imageTags: z.array(z.string()),
  privateLabelled: z.boolean(),
  /** Filled by the AI feature; empty until then. */
  predictions: z.array(PredictionSchema),
  prediction: PredictionSchema.nullable(),
  /**
   * The tile source of the initial layer (position_z 0); null until the image is available, unless its
   * original can be read tile by tile: then set (and `viewable`) from the end of its upload, served from the
   * original until the pyramid takes over under the same URL and info.json.
   */
  tileSource: TileSourceSchema.nullable(),
  /** Whether a viewer can open the image now (tileSource is set), possibly while it is still `processing`. */
  viewable: z.boolean(),
  /** Percent done of the running conversion (0–100); null when none runs. */
  conversionProgress: z.number().int().min(0).max(100).nullable(),
  imageLayerResources: z.array(ImageLayerResourceSchema),
  /** Side pictures the scanner stored (label, macro), readable with GET images/{id}/data?type=LABEL|MACRO. */
  associatedImages: z.array(AssociatedImageKindSchema),
  /**
   * The slide as DICOM (issue 45): its case is the study, the image the series, under the DICOMweb root
   * `/dicomweb/studies/{study}/series/{series}` once the image is available. Derived from the ids, so stable.
   */
  dicom: z.object({ studyInstanceUid: z.string(), seriesInstanceUid: z.string() }),
  createdAt: z.iso.datetime({ offset: true }),
});
export type Image = z.infer<typeof ImageSchema>;

/** PATCH images/{id} (merge patch): the AI model (null clears it) and the organ. */
export const UpdateImageRequestSchema = z.object({
  modelName: AiModelNameSchema.nullable().optional(),
  organ: OrganSchema.nullable().optional(),
});
export type UpdateImageRequest = z.infer<typeof UpdateImageRequestSchema>;

export const CopyImageRequestSchema = z.object({
  dstCaseId: z.uuid(),
  copyPrediction: z.boolean().default(false),
});
export type CopyImageRequest = z.input<typeof CopyImageRequestSchema>;

/** The copy's id and filename, as an upload answers. */
export const CopyImageResponseSchema = z.object({ id: z.uuid(), filename: z.string() });
export type CopyImageResponse = z.infer<typeof CopyImageResponseSchema>;

/** GET images/{id}/data?type=…: SMALL is the thumbnail; LABEL and MACRO the scanner's side pictures. */
export const IMAGE_DATA_TYPES = ['SMALL', 'LABEL', 'MACRO'] as const;
export const ImageDataQuerySchema = z.object({ type: z.enum(IMAGE_DATA_TYPES).default('SMALL') });

export const IMAGE_LIST_SEARCH_FIELDS = [
  'caseId',
  'status',
  'filename',
  'displayName',
  'organ',
  'specimenType',
  'modelName',
  'imageTags',
  'format',
] as const;

export const ImageSearchExpressionSchema = z.object({
  field: z.enum(IMAGE_LIST_SEARCH_FIELDS),
  operator: SearchOperatorSchema,
  value: z.union([z.string(), z.array(z.string())]).optional(),
});
export type ImageSearchExpression = z.infer<typeof ImageSearchExpressionSchema>;

/** POST images/search: images of visible cases matching every expression. */
export const ImageSearchRequestSchema = z.object({
  query: z.array(ImageSearchExpressionSchema).default([]),
  order: z
    .object({
      field: z.enum(['displayName', 'filename', 'createdAt', 'size']),
      direction: z.enum(['asc', 'desc']),
    })
    .default({ field: 'createdAt', direction: 'desc' }),
  page: z.number().int().min(1).default(1),
  limit: z.number().int().min(1).max(500).default(50),
});
export type ImageSearchRequest = z.input<typeof ImageSearchRequestSchema>;

export const ImageSearchResponseSchema = z.object({ data: z.array(ImageSchema), total: z.number().int() });
export type ImageSearchResponse = z.infer<typeof ImageSearchResponseSchema>;
