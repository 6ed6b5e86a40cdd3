import type { PredictionResult } from '@pathology/contract';
import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { createdAt, id, updatedAt } from './columns.ts';
import { predictionStatus } from './enums.ts';
import { imageLayers, images } from './images.ts';

/** One AI model run on an image. A completed prediction without result counts as negative. */
export const predictions = pgTable(
  'predictions',
  {
    id: id(),
    imageId: uuid()
      .notNull()
      .references(() => images.id, { onDelete: 'cascade' }),
    imageLayerId: uuid().references(() => imageLayers.id, { onDelete: 'set null' }),
    modelName: text().notNull(),
    status: predictionStatus().notNull().default('waiting'),
    verificationStatus: text(),
    verifiedAt: timestamp({ withTimezone: true }),
    result: jsonb().$type<PredictionResult>(),
    errorMessage: text(),
    /** Cells judged so far of the cells to judge, written as the worker goes. */
    progressDone: integer().notNull().default(0),
    progressTotal: integer().notNull().default(0),
    requestedByAccountId: uuid().references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('predictions_image_model_idx').on(t.imageId, t.modelName),
    index('predictions_status_idx').on(t.status),
  ],
);
