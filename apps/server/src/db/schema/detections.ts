import type { DetectionImportStatus } from '@pathology/contract';
import {
  bigint,
  customType,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { createdAt, id, updatedAt } from './columns.ts';
import { imageLayers, images } from './images.ts';
import { predictions } from './predictions.ts';

/** PostgreSQL's `box`, read and written as its text form `(x2,y2),(x1,y1)`; indexed with GiST. */
const box = customType<{ data: string }>({ dataType: () => 'box' });

/** PostgreSQL's `point[]`, written as its text form `{"(x,y)",…}`; only PostgreSQL reads it. */
const points = customType<{ data: string }>({ dataType: () => 'point[]' });

/** One import of detections (a GeoJSON file) on a layer; its objects and grid counts go with it. */
export const detectionSets = pgTable(
  'detection_sets',
  {
    id: id(),
    imageId: uuid()
      .notNull()
      .references(() => images.id, { onDelete: 'cascade' }),
    imageLayerId: uuid()
      .notNull()
      .references(() => imageLayers.id, { onDelete: 'cascade' }),
    accountId: uuid().references(() => accounts.id, { onDelete: 'set null' }),
    name: text().notNull(),
    count: integer().notNull().default(0),
    /** The prediction (a model with object output) whose objects these are; they go with it. */
    predictionId: uuid().references(() => predictions.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [index('detection_sets_layer_idx').on(t.imageLayerId), index('detection_sets_image_idx').on(t.imageId)],
);

/** The classes met on a layer, numbered once so that millions of rows carry a small integer. */
export const detectionClasses = pgTable(
  'detection_classes',
  {
    imageLayerId: uuid()
      .notNull()
      .references(() => imageLayers.id, { onDelete: 'cascade' }),
    classIndex: smallint().notNull(),
    name: text().notNull(),
    /** `#rrggbb`. */
    color: text().notNull(),
  },
  (t) => [
    primaryKey({ name: 'detection_classes_pk', columns: [t.imageLayerId, t.classIndex] }),
    unique('detection_classes_name_unique').on(t.imageLayerId, t.name),
  ],
);

/**
 * One detected object. `bbox` (GiST-indexed) answers viewport and counting queries; `geometry` is the GeoJSON
 * geometry text as imported (rounded), sent and exported as it is.
 */
export const detections = pgTable(
  'detections',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    setId: uuid()
      .notNull()
      .references(() => detectionSets.id, { onDelete: 'cascade' }),
    imageLayerId: uuid().notNull(),
    classIndex: smallint().notNull(),
    bbox: box().notNull(),
    geometry: text().notNull(),
    measurements: text(),
  },
  (t) => [index('detections_set_idx').on(t.setId, t.id), index('detections_bbox_idx').using('gist', t.bbox)],
);

/** Counts per class in square grid cells of `cellSize` pixels, written at import: zoomed-out views read these. */
export const detectionCells = pgTable(
  'detection_cells',
  {
    setId: uuid()
      .notNull()
      .references(() => detectionSets.id, { onDelete: 'cascade' }),
    imageLayerId: uuid().notNull(),
    cellSize: integer().notNull(),
    classIndex: smallint().notNull(),
    cellColumn: integer().notNull(),
    cellRow: integer().notNull(),
    count: integer().notNull(),
  },
  (t) => [
    index('detection_cells_grid_idx').on(t.imageLayerId, t.cellSize, t.cellRow, t.cellColumn),
    index('detection_cells_set_idx').on(t.setId),
  ],
);

/**
 * The centres of the boxes of one class's objects in one grid cell of 256 pixels, written at import: a count inside a
 * drawing tests these where its outline crosses the cell, never reading the objects' own wide rows.
 */
export const detectionCentres = pgTable(
  'detection_centres',
  {
    setId: uuid()
      .notNull()
      .references(() => detectionSets.id, { onDelete: 'cascade' }),
    imageLayerId: uuid().notNull(),
    classIndex: smallint().notNull(),
    cellColumn: integer().notNull(),
    cellRow: integer().notNull(),
    centres: points().notNull(),
  },
  (t) => [
    index('detection_centres_grid_idx').on(t.imageLayerId, t.cellRow, t.cellColumn),
    index('detection_centres_set_idx').on(t.setId),
  ],
);

/**
 * One upload of a GeoJSON file waiting for, or gone through, the `detection-import` job: its progress, and the
 * outcome (the set it made, or why the file was refused). The file waits in the blob store until the job is done.
 */
export const detectionImports = pgTable(
  'detection_imports',
  {
    id: id(),
    imageId: uuid()
      .notNull()
      .references(() => images.id, { onDelete: 'cascade' }),
    imageLayerId: uuid()
      .notNull()
      .references(() => imageLayers.id, { onDelete: 'cascade' }),
    accountId: uuid().references(() => accounts.id, { onDelete: 'set null' }),
    name: text().notNull(),
    status: text().$type<DetectionImportStatus>().notNull().default('waiting'),
    bytesTotal: bigint({ mode: 'number' }).notNull(),
    bytesRead: bigint({ mode: 'number' }).notNull().default(0),
    featuresRead: integer().notNull().default(0),
    setId: uuid().references(() => detectionSets.id, { onDelete: 'set null' }),
    errorMessage: text(),
    /** `features[i]` when a feature was refused, `file` when the file was. */
    errorField: text(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('detection_imports_layer_idx').on(t.imageLayerId)],
);

export type DetectionSetRow = typeof detectionSets.$inferSelect;
