import { z } from 'zod';
import { MAX_JSON_DEPTH } from './errors.ts';

/**
 * Polygon points one detection may have, as many as a drawing: a cell's outline has tens. One polygon of millions
 * held the server's memory and drew a single tile for over a minute.
 */
export const MAX_DETECTION_VERTICES = 100_000;
/** The JSON text of one feature: read whole before it is parsed, so this bounds an import's memory. */
export const MAX_DETECTION_FEATURE_MB = 16;
/** Polygon points of one import in all: a full slide of cells at ~50 points each. */
export const MAX_DETECTION_IMPORT_VERTICES = 150_000_000;

/**
 * Read-only detections (cells, nuclei) imported from image analysis, beside the editable drawings. Coordinates are
 * full-resolution image pixels, as QuPath and HistomicsTK export them.
 */
export const DETECTION_MESSAGES = {
  notGeoJson: 'The file is not a GeoJSON FeatureCollection.',
  noFeatures: 'The FeatureCollection has no features.',
  tooLarge: 'The file is larger than the import limit.',
  tooManyFeatures: 'The file has more features than the import limit.',
  tooManyVertices: 'The file has more polygon points than the import limit.',
  nestedTooDeep: `Arrays and objects in the file must not be nested more than ${MAX_JSON_DEPTH} levels deep.`,
  notFeature: 'not a GeoJSON Feature',
  badGeometry: 'its geometry is not a Polygon or MultiPolygon of [x, y] pixel positions with closed rings',
  outsideImage: 'its coordinates lie outside the image',
  badClassification: 'its classification has no name',
  featureTooManyVertices: `it has more than ${MAX_DETECTION_VERTICES.toLocaleString('en')} polygon points`,
  featureTooLarge: `its GeoJSON text is larger than ${MAX_DETECTION_FEATURE_MB} MB`,
  invalid: 'The file could not be imported.',
  noDrawing: 'The drawing does not exist.',
  notRetryable: 'Only an import that failed without a bad feature or file can be tried again.',
  notArea: 'Only a rectangle, polygon or ellipse has detections inside it.',
} as const;

/**
 * The 422 message naming the first bad feature: counted from 1 as people count, with its 0-based index as in
 * `features[index]` of the file (and `jq '.features[3]'`), so neither reader is off by one.
 */
export const badDetectionFeatureMessage = (index: number, reason: string) =>
  `Feature ${index + 1} (index ${index}) is not valid: ${reason}.`;

/** The field of the 422 `errors` that names the bad feature; its value is one of DETECTION_MESSAGES. */
export const detectionFeatureField = (index: number) => `features[${index}]`;

/** Class name of detections that carry none (QuPath's unclassified objects). */
export const UNCLASSIFIED_DETECTION = 'Unclassified';

/** One class of a layer's detections, with its colour from the imported file. */
export const DetectionClassSchema = z.object({
  /** Stable per layer: tiles name the classes to hide by it. */
  index: z.number().int().nonnegative(),
  name: z.string(),
  /** `#rrggbb`. */
  color: z.string(),
  count: z.number().int().nonnegative(),
});
export type DetectionClass = z.infer<typeof DetectionClassSchema>;

/** One import: a file's worth of detections on a layer. */
export const DetectionSetSchema = z.object({
  id: z.uuid(),
  imageId: z.uuid(),
  imageLayerId: z.uuid(),
  name: z.string(),
  count: z.number().int().nonnegative(),
  authorName: z.string().nullable(),
  createdAt: z.string(),
  /** The caller may delete it: its importer, or anyone who may edit the case. */
  deletable: z.boolean(),
});
export type DetectionSet = z.infer<typeof DetectionSetSchema>;

/** A layer's detections at a glance: the imports, the classes with their counts, and a version for tile caching. */
export const DetectionSummarySchema = z.object({
  sets: z.array(DetectionSetSchema),
  classes: z.array(DetectionClassSchema),
  total: z.number().int().nonnegative(),
  /** Changes whenever the layer's detections do; tile URLs carry it so cached tiles stay right. */
  version: z.string(),
  /** The caller may import detections here (canCreateDrawing). */
  canImport: z.boolean(),
  /** The caller may export them (canDownloadDrawings). */
  canExport: z.boolean(),
});
export type DetectionSummary = z.infer<typeof DetectionSummarySchema>;

export const DetectionImportQuerySchema = z.object({
  /** Shown in the list of imports; the file name, usually. */
  name: z.string().trim().min(1).max(200).default('detections.geojson'),
});

export const DETECTION_IMPORT_STATUSES = ['waiting', 'running', 'completed', 'failed'] as const;
export type DetectionImportStatus = (typeof DETECTION_IMPORT_STATUSES)[number];

/**
 * One upload of a GeoJSON file and the job that stores it: progress while it runs, then the set it made or why it
 * failed. A refused file's `error` names the first bad feature (`field` "features[i]") or the file (`field` "file"),
 * as a 422 would; any other failure (the worker stopped, the database was away) has no field and may be retried.
 */
export const DetectionImportSchema = z.object({
  id: z.uuid(),
  imageLayerId: z.uuid(),
  name: z.string(),
  status: z.enum(DETECTION_IMPORT_STATUSES),
  /** Bytes of the file parsed so far, of all of them. */
  bytesRead: z.number().int().nonnegative(),
  bytesTotal: z.number().int().nonnegative(),
  /** Features parsed so far; the count stored once completed. */
  features: z.number().int().nonnegative(),
  /** The import's set once completed. */
  setId: z.uuid().nullable(),
  error: z.object({ message: z.string(), field: z.string().nullable() }).nullable(),
  /** Failed for another reason than its file: the same file may be imported again. */
  retryable: z.boolean(),
  createdAt: z.string(),
});
export type DetectionImport = z.infer<typeof DetectionImportSchema>;

/** A region of the image in full-resolution pixels and the scale it is seen at (screen pixels per image pixel). */
export const DetectionViewportQuerySchema = z.object({
  x: z.coerce.number(),
  y: z.coerce.number(),
  width: z.coerce.number().positive(),
  height: z.coerce.number().positive(),
  scale: z.coerce.number().positive().max(64),
});
export type DetectionViewportQuery = z.infer<typeof DetectionViewportQuerySchema>;

/** One detection as the viewer shows it on hover or click. */
export const DetectionObjectSchema = z.object({
  id: z.string(),
  classIndex: z.number().int(),
  geometry: z.object({ type: z.enum(['Polygon', 'MultiPolygon']), coordinates: z.array(z.unknown()) }),
  /** As imported: QuPath writes an object of name → value, older versions a list of { name, value }. */
  measurements: z.unknown().nullable(),
});
export type DetectionObject = z.infer<typeof DetectionObjectSchema>;

/** Counts of one class in a grid cell of `cellSize` image pixels at (column, row). */
export const DetectionCellSchema = z.object({
  column: z.number().int(),
  row: z.number().int(),
  classIndex: z.number().int(),
  count: z.number().int(),
});
export type DetectionCell = z.infer<typeof DetectionCellSchema>;

/** What a viewport holds: the objects when seen closely, otherwise counts per grid cell (density). */
export const DetectionViewportSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('objects'), data: z.array(DetectionObjectSchema) }),
  z.object({ kind: z.literal('density'), cellSize: z.number().int().positive(), cells: z.array(DetectionCellSchema) }),
]);
export type DetectionViewport = z.infer<typeof DetectionViewportSchema>;

export const DetectionPointQuerySchema = z.object({ x: z.coerce.number(), y: z.coerce.number() });

/** The detection under a point, if any. */
export const DetectionAtPointSchema = z.object({ data: DetectionObjectSchema.nullable() });

/** Detections inside one drawing (by their centre), per class. */
export const DetectionCountSchema = z.object({
  drawingId: z.uuid(),
  total: z.number().int().nonnegative(),
  classes: z.array(
    z.object({
      index: z.number().int(),
      name: z.string(),
      color: z.string(),
      count: z.number().int().nonnegative(),
      /** count / total, 0 when the drawing holds none. */
      share: z.number().min(0).max(1),
    }),
  ),
});
export type DetectionCount = z.infer<typeof DetectionCountSchema>;

/** Tile rendering options: hidden classes and opacities. */
export const DetectionTileQuerySchema = z.object({
  /** Class indexes not drawn, comma-separated. */
  hide: z
    .string()
    .regex(/^(\d+(,\d+)*)?$/)
    .default(''),
  fill: z.coerce.number().min(0).max(1).default(0.35),
  line: z.coerce.number().min(0).max(1).default(0.9),
  /** The summary's version; only there so a changed layer never shows cached tiles. */
  v: z.string().max(100).optional(),
});
export type DetectionTileQuery = z.infer<typeof DetectionTileQuerySchema>;

/** Side of a detection tile in pixels. */
export const DETECTION_TILE_SIZE = 512;
