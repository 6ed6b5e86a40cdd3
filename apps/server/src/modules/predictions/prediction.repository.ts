import type { Prediction } from '@pathology/contract';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { imageLayers, images, predictions } from '../../db/schema/index.ts';

type PredictionRow = typeof predictions.$inferSelect;

export function toPrediction(row: PredictionRow): Prediction {
  return {
    id: row.id,
    imageId: row.imageId,
    imageLayerId: row.imageLayerId,
    modelName: row.modelName,
    status: row.status,
    verificationStatus: row.verificationStatus,
    verifiedAt: row.verifiedAt?.toISOString() ?? null,
    result: row.result ?? null,
    progress: { done: row.progressDone, total: row.progressTotal },
    errorMessage: row.errorMessage,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The image a prediction is about, with what a request needs to know of it. */
export interface PredictionTarget {
  imageId: string;
  caseId: string;
  status: string;
  modelName: string | null;
  organ: string | null;
  layerIds: string[];
}

export function createPredictionRepository(db: Db) {
  async function target(imageId: string): Promise<PredictionTarget | undefined> {
    const [image] = await db
      .select({
        imageId: images.id,
        caseId: images.caseId,
        status: images.status,
        modelName: images.modelName,
        organ: images.organ,
      })
      .from(images)
      .where(eq(images.id, imageId));
    if (!image) return undefined;
    const layers = await db
      .select({ id: imageLayers.id })
      .from(imageLayers)
      .where(eq(imageLayers.imageId, imageId))
      .orderBy(imageLayers.layerNumber);
    return { ...image, layerIds: layers.map((layer) => layer.id) };
  }

  return {
    target,

    async imageOfLayer(layerId: string): Promise<string | undefined> {
      const [found] = await db
        .select({ imageId: imageLayers.imageId })
        .from(imageLayers)
        .where(eq(imageLayers.id, layerId));
      return found?.imageId;
    },

    async find(id: string): Promise<PredictionRow | undefined> {
      const [row] = await db.select().from(predictions).where(eq(predictions.id, id));
      return row;
    },

    /** An image's predictions, newest first. */
    async forImage(imageId: string): Promise<PredictionRow[]> {
      return db.select().from(predictions).where(eq(predictions.imageId, imageId)).orderBy(desc(predictions.createdAt));
    },

    /** The prediction of this model on this image that is waiting, running or completed, if any. */
    async current(imageId: string, modelName: string): Promise<PredictionRow | undefined> {
      const [row] = await db
        .select()
        .from(predictions)
        .where(
          and(
            eq(predictions.imageId, imageId),
            eq(predictions.modelName, modelName),
            inArray(predictions.status, ['waiting', 'running', 'completed']),
          ),
        )
        .orderBy(desc(predictions.createdAt))
        .limit(1);
      return row;
    },

    async create(values: {
      imageId: string;
      imageLayerId: string;
      modelName: string;
      accountId: string;
    }): Promise<PredictionRow> {
      const [row] = await db
        .insert(predictions)
        .values({
          imageId: values.imageId,
          imageLayerId: values.imageLayerId,
          modelName: values.modelName,
          requestedByAccountId: values.accountId,
        })
        .returning();
      return row!;
    },

    /** Back to waiting with nothing of the previous run kept. */
    async reset(id: string): Promise<PredictionRow | undefined> {
      const [row] = await db
        .update(predictions)
        .set({ status: 'waiting', result: null, errorMessage: null, progressDone: 0, progressTotal: 0 })
        .where(eq(predictions.id, id))
        .returning();
      return row;
    },

    async remove(id: string): Promise<void> {
      await db.delete(predictions).where(eq(predictions.id, id));
    },
  };
}

export type PredictionRepository = ReturnType<typeof createPredictionRepository>;
