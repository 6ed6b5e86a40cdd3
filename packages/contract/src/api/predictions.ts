import { z } from 'zod';
import { AiModelSchema } from '../domain/ai-models.ts';
import { PredictionLabelGroupSchema, PredictionResultSchema, PredictionStatusSchema } from '../domain/predictions.ts';

/** A catalogue model as the server has it installed: available ones carry their label groups. */
export const InstalledAiModelSchema = AiModelSchema.extend({
  version: z.string().nullable(),
  labelGroups: z.array(PredictionLabelGroupSchema),
});
export type InstalledAiModel = z.infer<typeof InstalledAiModelSchema>;

export const AiModelListSchema = z.object({ data: z.array(InstalledAiModelSchema) });
export type AiModelList = z.infer<typeof AiModelListSchema>;

export const PredictionProgressSchema = z.object({
  /** Cells read and judged so far, of `total` (0 of 0 before the worker has looked at the slide). */
  done: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
});

export const PredictionSchema = z.object({
  id: z.string().uuid(),
  imageId: z.string().uuid(),
  imageLayerId: z.string().uuid().nullable(),
  modelName: z.string(),
  status: PredictionStatusSchema,
  verificationStatus: z.string().nullable(),
  verifiedAt: z.string().nullable(),
  result: PredictionResultSchema.nullable(),
  progress: PredictionProgressSchema,
  errorMessage: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Prediction = z.infer<typeof PredictionSchema>;

export const RequestPredictionSchema = z.object({
  imageLayerId: z.string().uuid(),
  modelName: z.string().min(1),
});
export type RequestPrediction = z.infer<typeof RequestPredictionSchema>;

export const BulkPredictionRequestSchema = z.object({
  organizationId: z.string().uuid(),
  predictionImages: z
    // An empty or null model name means the image's own model; an image with none is skipped.
    .array(z.object({ imageId: z.string().uuid(), modelName: z.string().nullable() }))
    .min(1)
    .max(1000),
});
export type BulkPredictionRequest = z.infer<typeof BulkPredictionRequestSchema>;

export const BULK_SKIP_REASONS = ['alreadyAnalyzed', 'emptyModel', 'notAvailable'] as const;

export const BulkPredictionResponseSchema = z.object({
  requested: z.array(PredictionSchema),
  skipped: z.array(z.object({ imageId: z.string().uuid(), reason: z.enum(BULK_SKIP_REASONS) })),
});
export type BulkPredictionResponse = z.infer<typeof BulkPredictionResponseSchema>;

/** Server messages of the prediction calls. */
export const PREDICTION_MESSAGES = {
  modelNotAvailable: 'This AI model is not available.',
  imageNotAvailable: 'The image is not available for AI analysis.',
  alreadyRequested: 'AI analysis of this image with this model is already requested.',
  notRecoverable: 'Only a failed prediction can be recovered without force.',
  predictionDisabled: 'AI analysis is not enabled for this group.',
} as const;
