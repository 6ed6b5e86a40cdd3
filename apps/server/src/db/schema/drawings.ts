import { index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { createdAt, id, updatedAt, type JsonObject } from './columns.ts';
import { contentVisibility } from './enums.ts';
import { imageLayers, images } from './images.ts';

/**
 * An annotation drawn on one layer of an image. Coordinates in `geometry` are in full-resolution
 * image pixels so they stay valid at every zoom level.
 */
export const drawings = pgTable(
  'drawings',
  {
    id: id(),
    imageId: uuid()
      .notNull()
      .references(() => images.id, { onDelete: 'cascade' }),
    imageLayerId: uuid()
      .notNull()
      .references(() => imageLayers.id, { onDelete: 'cascade' }),
    accountId: uuid().references(() => accounts.id, { onDelete: 'set null' }),
    visibility: contentVisibility().notNull().default('public'),
    title: text().notNull().default(''),
    /** e.g. rectangle, ellipse, polygon, polyline, freehand, arrow, point. */
    shapeType: text().notNull(),
    geometry: jsonb().$type<JsonObject>().notNull(),
    /**
     * The geometry as the layer lists send it (CompactGeometry JSON: encoded polylines), written with
     * `geometry` so a list of thousands of outlines is read as stored text, never converted from jsonb.
     */
    compactGeometry: text(),
    style: jsonb().$type<JsonObject>().notNull().default({}),
    /** Length, area and the like, computed with the image resolution when it was drawn. */
    measurement: jsonb().$type<JsonObject>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('drawings_layer_visibility_idx').on(t.imageLayerId, t.visibility),
    index('drawings_image_idx').on(t.imageId),
    index('drawings_account_idx').on(t.accountId),
  ],
);

export const imageNotes = pgTable(
  'image_notes',
  {
    id: id(),
    imageId: uuid()
      .notNull()
      .references(() => images.id, { onDelete: 'cascade' }),
    accountId: uuid().references(() => accounts.id, { onDelete: 'set null' }),
    visibility: contentVisibility().notNull().default('public'),
    body: text().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('image_notes_image_idx').on(t.imageId, t.createdAt)],
);
