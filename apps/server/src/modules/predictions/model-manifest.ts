import fs from 'node:fs/promises';
import path from 'node:path';
import { AI_MODEL_NAMES, PredictionLabelGroupSchema } from '@pathology/contract';
import { z } from 'zod';

/**
 * Object output: the model gives N×labels.length×inputSize×inputSize probability maps (0–1) instead of one
 * probability per label, and the prediction stores the objects they outline as detections on the layer.
 */
export const ObjectOutputSchema = z.object({
  /** Probability from which a pixel belongs to an object of its label. */
  threshold: z.number().gt(0).max(1).default(0.5),
  /** Regions of fewer pixels of the model's input are noise, not objects. */
  minPixels: z.number().min(0).default(4),
});

/**
 * One installed model as `manifest.json` in a models folder describes it. The model file takes
 * `image` (float32 N×3×inputSize×inputSize, RGB 0–255) and gives N×labels.length probabilities (0–1)
 * as its first output, column i for labels[i] — or, when it declares `objects`, a probability map per label.
 */
export const ManifestEntrySchema = z.object({
  /** The catalogue entry the model answers for. */
  modelName: z.enum(AI_MODEL_NAMES as [string, ...string[]]),
  /** The .onnx file, relative to the manifest. */
  file: z.string().min(1),
  version: z.string().min(1),
  /** Side of the square cell the model reads, in pixels at `magnification`. */
  inputSize: z.number().int().min(8).max(2048),
  /** Objective magnification the model was trained at (20 for ×20, 0.5 µm per pixel). */
  magnification: z.number().positive(),
  labels: z.array(z.string().min(1)).min(1),
  labelGroups: z.array(PredictionLabelGroupSchema.omit({ modelName: true })).min(1),
  /** Percent a cell's probability must reach to count; the default is 50. */
  threshold: z.number().min(0).max(100).optional(),
  /** Cells at once in one inference call. */
  batchSize: z.number().int().min(1).max(1024).default(32),
  /** Declares object output (nuclei, cells): the objects are stored as the layer's detections. */
  objects: ObjectOutputSchema.optional(),
});
export type ManifestEntry = z.infer<typeof ManifestEntrySchema>;

export const ManifestSchema = z.object({ models: z.array(ManifestEntrySchema) });

/** A model ready to run: its manifest entry and the absolute path of its file. */
export interface InstalledModel extends ManifestEntry {
  path: string;
}

/**
 * The models of a folder's `manifest.json` whose files exist. A missing manifest means none; a
 * broken one is an operator's mistake reported as an error, not silently ignored.
 */
export async function readManifest(folder: string): Promise<InstalledModel[]> {
  const manifestPath = path.join(folder, 'manifest.json');
  let text: string;
  try {
    text = await fs.readFile(manifestPath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const parsed = ManifestSchema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`${manifestPath} is not a valid model manifest: ${parsed.error.message}`);
  const installed: InstalledModel[] = [];
  for (const entry of parsed.data.models) {
    const file = path.resolve(folder, entry.file);
    const present = await fs.stat(file).then(
      (stat) => stat.isFile(),
      () => false,
    );
    if (present) installed.push({ ...entry, path: file });
  }
  return installed;
}
