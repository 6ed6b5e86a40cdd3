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
  /**
   * A model with object output: the set of detections its objects were stored as on the layer, and how many
   * (the cells then hold each label's highest pixel probability).
   */
  detections: z.object({ setId: z.uuid(), count: z.number().int().nonnegative() }).optional(),
});
export type PredictionResult = z.infer<typeof PredictionResultSchema>;

export const LABEL_GROUP_TYPES = ['abnormal', 'normal'] as const;

/** Labels of a model shown together in the overlay and its legend, in one colour. */
export const PredictionLabelGroupSchema = z.object({
  name: z.string().min(1),
  labelNames: z.array(z.string().min(1)).min(1),
  modelName: z.string(),
  type: z.enum(LABEL_GROUP_TYPES),
  displayName: z.string().min(1),
  shortName: z.string().optional(),
  color: z.string().regex(/^#[0-9a-fA-F]{6}$/),
  /** Cells of this group count as a finding (positive) rather than as normal tissue. */
  positive: z.boolean(),
});
export type PredictionLabelGroup = z.infer<typeof PredictionLabelGroupSchema>;

/** Side of the overlay grid: the next power of two of image size ÷ cell size, at least 4 (part 2 §9). */
export function overlayGridSize(imageSize: number, cellSize: number): number {
  const cells = Math.max(1, Math.ceil(imageSize / cellSize));
  return Math.max(4, 2 ** Math.ceil(Math.log2(cells)));
}
