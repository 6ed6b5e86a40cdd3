import { z } from 'zod';

/** `waiting` and `running` are both shown as "Requested". */
export const PREDICTION_STATUSES = ['waiting', 'running', 'completed', 'failed'] as const;
export const PredictionStatusSchema = z.enum(PREDICTION_STATUSES);
export type PredictionStatus = z.infer<typeof PredictionStatusSchema>;

/** Threshold (percent) applied when a result carries none. */
export const DEFAULT_PREDICTION_THRESHOLD = 50;

/** What a model writes for one image: a grid of cells, each with label probabilities. */
export const PredictionResultSchema = z.object({
  cellSize: z.number().int().positive(),
  version: z.string(),
  numberOfConsideredCells: z.number().int().nonnegative(),
  /** label id → label name */
  labels: z.record(z.string(), z.string()),
  /** "x:y" → label id → probability (0–100) */
  cells: z.record(z.string(), z.record(z.string(), z.number())),
  threshold: z.number().optional(),
});
export type PredictionResult = z.infer<typeof PredictionResultSchema>;
