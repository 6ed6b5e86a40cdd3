import {
  DEFAULT_PREDICTION_THRESHOLD,
  micronsPerImagePixel,
  PREDICTION_MESSAGES,
  type PredictionResult,
} from '@pathology/contract';
import { and, eq, inArray } from 'drizzle-orm';
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import type { Logger } from 'pino';
import type pg from 'pg';
import type { Db } from '../../db/client.ts';
import { imageLayers, images, predictions } from '../../db/schema/index.ts';
import { detectionsOfFeatures, storeDetections } from '../detections/detection-import.ts';
import type { PyramidCache } from '../iiif/pyramid-cache.ts';
import type { InstalledModel } from './model-manifest.ts';
import type { ModelRegistry } from './model-registry.ts';
import { cellObjects } from './slide-objects.ts';
import { planGrid, slideMagnification } from './slide-cells.ts';
import { inferSlide, type InferenceOutcome, type SlideInference } from './slide-inference.ts';

export interface PredictionJobDeps {
  db: Db;
  /** For a model with object output: its objects are stored as detections, as an import is. */
  pool: pg.Pool;
  maxDetections: number;
  pyramids: PyramidCache;
  models: ModelRegistry;
  log: Logger;
}

interface Attempt {
  predictionId: string;
  /** pg-boss's retry count of this job and the queue's limit: the last attempt records the failure. */
  retryCount: number;
  retryLimit: number;
}

/** Thrown when the prediction was deleted or taken back while it ran: the work stops quietly. */
class PredictionWithdrawn extends Error {}

/** Marks a prediction failed, unless it finished or went away meanwhile. */
export async function failPrediction(db: Db, predictionId: string, message: string): Promise<void> {
  await db
    .update(predictions)
    .set({ status: 'failed', errorMessage: message })
    .where(and(eq(predictions.id, predictionId), inArray(predictions.status, ['waiting', 'running'])));
}

async function slideOf(db: Db, predictionId: string) {
  const [found] = await db
    .select({
      modelName: predictions.modelName,
      requestedBy: predictions.requestedByAccountId,
      layerId: predictions.imageLayerId,
      imageId: predictions.imageId,
      magnification: images.magnification,
      resolutionX: images.resolutionX,
      resolutionY: images.resolutionY,
      resolutionUnit: images.resolutionUnit,
    })
    .from(predictions)
    .innerJoin(images, eq(images.id, predictions.imageId))
    .where(eq(predictions.id, predictionId));
  if (!found) return undefined;
  const layers = await db
    .select({
      id: imageLayers.id,
      pyramidKey: imageLayers.pyramidKey,
      layerNumber: imageLayers.layerNumber,
      width: imageLayers.width,
      height: imageLayers.height,
    })
    .from(imageLayers)
    .where(eq(imageLayers.imageId, found.imageId))
    .orderBy(imageLayers.layerNumber);
  const layer = layers.find((candidate) => candidate.id === found.layerId) ?? layers[0];
  return { ...found, layer };
}

/**
 * The `predict` job: tissue detection and the model over the slide, progress written row by row,
 * the result stored with the model's version. A killed worker's prediction stays `running` until its
 * lapsed lease has the job retried (from the start); the last attempt's failure is recorded as `failed`.
 */
export async function predictJob(deps: PredictionJobDeps, attempt: Attempt): Promise<void> {
  const { db, log } = deps;
  const { predictionId } = attempt;
  const [claimed] = await db
    .update(predictions)
    .set({ status: 'running', errorMessage: null, progressDone: 0, progressTotal: 0 })
    .where(and(eq(predictions.id, predictionId), inArray(predictions.status, ['waiting', 'running'])))
    .returning({ id: predictions.id });
  if (!claimed) {
    log.info({ predictionId }, 'prediction skipped: it is gone or no longer waiting');
    return;
  }
  try {
    const slide = await slideOf(db, predictionId);
    const model = slide && (await deps.models.find(slide.modelName));
    if (!slide?.layer || !model) {
      await failPrediction(
        db,
        predictionId,
        slide?.layer ? PREDICTION_MESSAGES.modelNotAvailable : PREDICTION_MESSAGES.imageNotAvailable,
      );
      return;
    }
    const pyramid = await deps.pyramids.get(slide.layer.pyramidKey);
    const resolution =
      slide.resolutionX == null || slide.resolutionUnit == null
        ? null
        : { x: slide.resolutionX, y: slide.resolutionY ?? slide.resolutionX, unit: slide.resolutionUnit };
    const magnification = slideMagnification(micronsPerImagePixel(resolution), slide.magnification);
    const grid = planGrid(pyramid.levels, magnification, model);
    const page = pyramid.levels[grid.level]!;
    const inference: SlideInference = {
      source: { path: await pyramid.localPath(), page: page.index, width: page.width, height: page.height },
      grid,
      inputSize: model.inputSize,
      batchSize: model.batchSize,
      tissue: await deps.models.tissue(),
      classifier: await deps.models.classifier(model),
      onProgress: async (done, total) => {
        const [still] = await db
          .update(predictions)
          .set({ progressDone: done, progressTotal: total })
          .where(and(eq(predictions.id, predictionId), eq(predictions.status, 'running')))
          .returning({ id: predictions.id });
        if (!still) throw new PredictionWithdrawn();
      },
    };
    const resultOf = (outcome: InferenceOutcome, detections?: PredictionResult['detections']): PredictionResult => ({
      cellSize: grid.cellSize,
      version: model.version,
      numberOfConsideredCells: outcome.considered,
      labels: Object.fromEntries(model.labels.map((label, index) => [String(index + 1), label])),
      cells: outcome.cells,
      threshold: model.threshold ?? DEFAULT_PREDICTION_THRESHOLD,
      ...(detections && { detections }),
    });
    const outcome = model.objects
      ? await predictObjects(deps, {
          predictionId,
          slide: { ...slide, layer: slide.layer },
          model,
          inference,
          resultOf,
        })
      : await inferSlide(inference);
    if (!model.objects) {
      await db
        .update(predictions)
        .set({ status: 'completed', result: resultOf(outcome) })
        .where(and(eq(predictions.id, predictionId), eq(predictions.status, 'running')));
    }
    log.info(
      {
        predictionId,
        cells: grid.columns * grid.rows,
        considered: outcome.considered,
        readMs: Math.round(outcome.readMs),
      },
      'prediction completed',
    );
  } catch (error) {
    if (error instanceof PredictionWithdrawn) {
      log.info({ predictionId }, 'prediction withdrawn while it ran');
      return;
    }
    const last = attempt.retryCount >= attempt.retryLimit;
    if (last) await failPrediction(db, predictionId, (error as Error).message);
    else {
      await db
        .update(predictions)
        .set({ status: 'waiting', errorMessage: (error as Error).message })
        .where(and(eq(predictions.id, predictionId), eq(predictions.status, 'running')));
    }
    throw error;
  }
}

interface ObjectRun {
  predictionId: string;
  slide: {
    imageId: string;
    modelName: string;
    requestedBy: string | null;
    layer: { id: string; width: number; height: number };
  };
  model: InstalledModel;
  inference: SlideInference;
  resultOf: (outcome: InferenceOutcome, detections: PredictionResult['detections']) => PredictionResult;
}

/**
 * A model with object output: the objects of each tissue cell stream into the same storage as an imported file's
 * (one set on the layer, all or nothing) while the model runs; the prediction is completed in that transaction, and
 * the set of an earlier run of it is replaced in it too.
 */
async function predictObjects(deps: PredictionJobDeps, run: ObjectRun): Promise<InferenceOutcome> {
  const { slide, model, inference } = run;
  const objects = new PassThrough({ objectMode: true, highWaterMark: 4096 });
  const labels = model.labels.map((name) => ({
    name,
    color: model.labelGroups.find((group) => group.labelNames.includes(name))?.color,
  }));
  const scale = inference.grid.cellSize / model.inputSize;
  let outcome: InferenceOutcome | undefined;
  const storing = storeDetections(
    deps.pool,
    detectionsOfFeatures(objects, slide.layer),
    {
      imageId: slide.imageId,
      layerId: slide.layer.id,
      accountId: slide.requestedBy,
      name: `${slide.modelName} ${model.version}`,
      size: slide.layer,
      predictionId: run.predictionId,
    },
    {
      maxFeatures: deps.maxDetections,
      allowEmpty: true,
      beforeCommit: async (client, stored) => {
        await client.query('DELETE FROM detection_sets WHERE prediction_id = $1 AND id <> $2', [
          run.predictionId,
          stored.setId,
        ]);
        const result = run.resultOf(outcome!, { setId: stored.setId, count: stored.count });
        const done = await client.query(
          `UPDATE predictions SET status = 'completed', result = $2::jsonb, updated_at = now()
           WHERE id = $1 AND status = 'running'`,
          [run.predictionId, JSON.stringify(result)],
        );
        if (done.rowCount === 0) throw new PredictionWithdrawn();
      },
    },
  );
  // A failed store stops the model at its next row rather than letting it run on for nothing.
  let storeFailure: Error | undefined;
  storing.catch((error: unknown) => (storeFailure = error as Error));
  try {
    outcome = await inferSlide({
      ...inference,
      objects: (column, row, maps) => {
        const cell = { x: column * inference.grid.cellSize, y: row * inference.grid.cellSize, scale, ...slide.layer };
        const found = cellObjects(maps, model.inputSize, labels, model.objects!, cell);
        for (const feature of found.features) objects.write(feature);
        return found.peaks;
      },
      onProgress: async (done, total) => {
        if (storeFailure !== undefined) throw storeFailure;
        if (objects.writableNeedDrain) await Promise.race([once(objects, 'drain'), storing]);
        await inference.onProgress(done, total);
      },
    });
    objects.end();
  } catch (error) {
    objects.destroy(error as Error);
    await storing.catch(() => undefined);
    throw error;
  }
  await storing;
  return outcome;
}
