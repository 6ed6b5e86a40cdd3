import type { ImageLayerMetadata } from '@pathology/contract';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { cases } from './cases.ts';
import { createdAt, id, updatedAt } from './columns.ts';
import { associatedImageKind, imageStatus, resolutionUnit, specimenType } from './enums.ts';

/** A slide or plain image of a case. Dimensions and scanner data are filled in by conversion. */
export const images = pgTable(
  'images',
  {
    id: id(),
    caseId: uuid()
      .notNull()
      .references(() => cases.id, { onDelete: 'cascade' }),
    uploadAccountId: uuid().references(() => accounts.id, { onDelete: 'set null' }),
    filename: text().notNull(),
    displayName: text().notNull(),
    status: imageStatus().notNull().default('reserved'),
    /** PROCESS_ERROR_CODES of the contract when status is process_failed. */
    processErrorCode: integer(),
    processErrorMessage: text(),
    /** Bytes of the original upload. */
    size: bigint({ mode: 'number' }).notNull().default(0),
    format: text(),
    staining: text(),
    scannedIn: text(),
    scannedAt: timestamp({ withTimezone: true }),
    width: integer(),
    height: integer(),
    resolutionX: doublePrecision(),
    resolutionY: doublePrecision(),
    resolutionUnit: resolutionUnit(),
    magnification: doublePrecision(),
    organ: text(),
    specimenType: specimenType(),
    /** AI model chosen for this image; null when none is set. */
    modelName: text(),
    imageTags: text()
      .array()
      .notNull()
      .default(sql`'{}'`),
    /** Blob key of the original file; copies of an image share it, so blobs are removed by reference count. */
    originalKey: text(),
    thumbnailKey: text(),
    /** Percent of the running conversion done (0–100); null when none runs. */
    conversionProgress: smallint(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Also serves lookups by caseId alone.
    unique('images_case_filename_unique').on(t.caseId, t.filename),
    index('images_status_idx').on(t.status),
    index('images_organ_idx').on(t.organ),
    index('images_specimen_type_idx').on(t.specimenType),
    index('images_model_name_idx').on(t.modelName),
    index('images_original_key_idx').on(t.originalKey),
    index('images_display_name_trgm_idx').using('gin', t.displayName.op('gin_trgm_ops')),
    index('images_image_tags_idx').using('gin', t.imageTags),
  ],
);

/** One focal plane of an image, converted to its own tiled pyramid. Single-layer images have layer 0 only. */
export const imageLayers = pgTable(
  'image_layers',
  {
    id: id(),
    imageId: uuid()
      .notNull()
      .references(() => images.id, { onDelete: 'cascade' }),
    layerNumber: integer().notNull(),
    /** Bytes of the pyramid file, counted into the group's pyramidal storage. */
    pyramidalSize: bigint({ mode: 'number' }).notNull().default(0),
    metadata: jsonb().$type<ImageLayerMetadata>(),
    width: integer().notNull(),
    height: integer().notNull(),
    tileSize: integer().notNull().default(512),
    /** The converted pyramid, or the original while fromOriginal (tiles are read from it until the pyramid takes over). */
    pyramidKey: text().notNull(),
    /** A layer served from the original while its pyramid builds; the conversion's commit turns it into a pyramid layer, keeping its id. */
    fromOriginal: boolean().notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [unique('image_layers_image_layer_unique').on(t.imageId, t.layerNumber)],
);

/** Label, macro and thumbnail pictures stored alongside a slide. */
export const imageAssociated = pgTable(
  'image_associated',
  {
    id: id(),
    imageId: uuid()
      .notNull()
      .references(() => images.id, { onDelete: 'cascade' }),
    kind: associatedImageKind().notNull(),
    blobKey: text().notNull(),
    width: integer().notNull(),
    height: integer().notNull(),
    createdAt: createdAt(),
  },
  (t) => [unique('image_associated_image_kind_unique').on(t.imageId, t.kind)],
);
