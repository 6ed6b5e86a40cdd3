import { DETECTION_MESSAGES, MAX_DETECTION_IMPORT_VERTICES } from '@pathology/contract';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { HttpError } from '../../http/http-error.ts';
import { CellCentres, pointArrayText } from './detection-cell-centres.ts';
import { CellCounts } from './detection-cell-counts.ts';
import { CopyRows } from './copy-rows.ts';
import { parseDetectionFeature, type ParsedDetection } from './detection-feature.ts';
import { invalidFeature } from './detection-file.ts';

export interface ImportTarget {
  imageId: string;
  layerId: string;
  accountId: string | null;
  name: string;
  size: { width: number; height: number };
  /** The prediction whose objects these are (a model with object output). */
  predictionId?: string;
}

export interface ImportLimits {
  /** Largest file an upload takes (DETECTIONS_MAX_MB). */
  maxBytes: number;
  maxFeatures: number;
}

/** Colours of classes the file gives none for, in the order such classes are met. */
const PALETTE = ['#e03131', '#1971c2', '#2f9e44', '#f08c00', '#9c36b5', '#0c8599', '#e8590c', '#5c940d'];

const COPY_DETECTIONS =
  'COPY detections (set_id, image_layer_id, class_index, bbox, geometry, measurements) FROM STDIN (FORMAT text)';
const COPY_CELLS =
  'COPY detection_cells (set_id, image_layer_id, cell_size, class_index, cell_column, cell_row, count) FROM STDIN';
const COPY_CENTRES =
  'COPY detection_centres (set_id, image_layer_id, class_index, cell_column, cell_row, centres) FROM STDIN';

/**
 * JSON text as a field of COPY's text format. JSON.stringify writes no raw tab, newline or carriage return (it
 * escapes them), so only its backslashes need doubling; the format's quotes are plain characters, unlike CSV's.
 */
const copyText = (json: string) => (json.includes('\\') ? json.replaceAll('\\', '\\\\') : json);

interface LayerClass {
  index: number;
  color: string;
  isNew: boolean;
}

/** The layer's classes by name; new ones are numbered on from the highest. */
async function layerClasses(client: pg.PoolClient, layerId: string) {
  const { rows } = await client.query<{ class_index: number; name: string; color: string }>(
    'SELECT class_index, name, color FROM detection_classes WHERE image_layer_id = $1',
    [layerId],
  );
  const classes = new Map<string, LayerClass>(
    rows.map((row) => [row.name, { index: row.class_index, color: row.color, isNew: false }]),
  );
  let next = rows.reduce((highest, row) => Math.max(highest, row.class_index + 1), 0);
  return {
    indexOf(detection: ParsedDetection): number {
      let known = classes.get(detection.className);
      if (known === undefined) {
        const color = detection.color ?? PALETTE[next % PALETTE.length]!;
        known = { index: next++, color, isNew: true };
        classes.set(detection.className, known);
      }
      return known.index;
    },
    added: () => [...classes].filter(([, known]) => known.isNew),
  };
}

/** The import's grid counts into `detection_cells` by COPY (a row per class and cell: up to two per object). */
async function writeCells(rows: CopyRows, prefix: string, cells: CellCounts): Promise<void> {
  for (const { cellSize, classIndex, column, row, count } of cells.rows()) {
    if (rows.add(`${prefix}${cellSize}\t${classIndex}\t${column}\t${row}\t${count}\n`)) await rows.flush();
  }
  await rows.end();
}

/** The import's centres per class and cell into `detection_centres` by COPY. */
async function writeCentres(rows: CopyRows, prefix: string, centres: CellCentres): Promise<void> {
  for (const { classIndex, column, row, centres: points } of centres.rows()) {
    if (rows.add(`${prefix}${classIndex}\t${column}\t${row}\t${pointArrayText(points)}\n`)) await rows.flush();
  }
  await rows.end();
}

export interface StoreOptions {
  maxFeatures: number;
  /** Positions of all the features' rings; MAX_DETECTION_IMPORT_VERTICES unless told. */
  maxVertices?: number;
  /** Stores a set of no detections rather than refusing it (a model that found none has still run). */
  allowEmpty?: boolean;
  /** Told the features stored so far now and then; a throw stops the import, storing nothing. */
  onProgress?: (features: number) => Promise<void>;
  /** Runs in the import's transaction just before it commits: whatever records the outcome commits with it. */
  beforeCommit?: (client: pg.PoolClient, stored: { setId: string; count: number }) => Promise<void>;
}

/**
 * Settles freshly stored objects at once and unthrottled: their pages' hint bits and visibility, and the tables'
 * statistics. Left to autovacuum, this came about a minute after each import and ran throttled for half a minute (a
 * million objects: 65,000 pages read and written again), under the first views of the slide. VACUUM reads only pages
 * not yet all-visible; index clean-up, which reads whole indexes, and truncation, whose lock holds up readers, are left
 * to autovacuum.
 */
export async function settleDetections(pool: pg.Pool): Promise<void> {
  await pool.query(
    'VACUUM (ANALYZE, INDEX_CLEANUP OFF, TRUNCATE false) detections, detection_cells, detection_centres',
  );
}

/** Features already in memory (a model's objects, small) as detections, each the reason it is none where it is not one. */
export async function* detectionsOfFeatures(
  features: AsyncIterable<unknown>,
  size: ImportTarget['size'],
): AsyncGenerator<ParsedDetection | string> {
  for await (const feature of features) yield parseDetectionFeature(feature, size);
}

/**
 * Stores GeoJSON features of detections (an imported file's read by detectionsOf, a model's by detectionsOfFeatures)
 * as one set on a layer in one transaction: rows go to PostgreSQL by COPY as they come; the grid counts of zoomed-out views and the centres per cell that counts
 * inside drawings test, gathered meanwhile, after them. The first bad feature is a 422 naming it, and a failed import
 * stores nothing. Imports onto one layer take turns (class numbers are per layer).
 */
export async function storeDetections(
  pool: pg.Pool,
  detections: AsyncIterable<ParsedDetection | string>,
  target: ImportTarget,
  options: StoreOptions,
): Promise<{ setId: string; count: number }> {
  const client = await pool.connect();
  let copying: ReturnType<typeof copyFrom> | undefined;
  try {
    await client.query('BEGIN');
    // Committed to disk before the set is settled, whatever the server's default: VACUUM leaves the pages of an
    // asynchronous commit not yet flushed as it found them (their hint bits cannot be set yet).
    await client.query('SET LOCAL synchronous_commit = on');
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`detections:${target.layerId}`]);
    const classes = await layerClasses(client, target.layerId);
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO detection_sets (image_id, image_layer_id, account_id, name, prediction_id)
       VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [target.imageId, target.layerId, target.accountId, target.name, target.predictionId ?? null],
    );
    const setId = rows[0]!.id;
    copying = client.query(copyFrom(COPY_DETECTIONS));
    const copy = new CopyRows(copying);
    const prefix = `${setId}\t${target.layerId}\t`;
    const cells = new CellCounts();
    const centres = new CellCentres();
    let count = 0;
    let vertices = 0;
    const maxVertices = options.maxVertices ?? MAX_DETECTION_IMPORT_VERTICES;
    for await (const detection of detections) {
      if (count >= options.maxFeatures) {
        throw HttpError.validation({ file: DETECTION_MESSAGES.tooManyFeatures }, DETECTION_MESSAGES.tooManyFeatures);
      }
      if (typeof detection === 'string') throw invalidFeature(count, detection);
      vertices += detection.vertices;
      if (vertices > maxVertices) {
        throw HttpError.validation({ file: DETECTION_MESSAGES.tooManyVertices }, DETECTION_MESSAGES.tooManyVertices);
      }
      const classIndex = classes.indexOf(detection);
      cells.add(classIndex, detection.bbox);
      centres.add(classIndex, detection.bbox);
      const [minX, minY, maxX, maxY] = detection.bbox;
      const full = copy.add(
        `${prefix}${classIndex}\t(${maxX},${maxY}),(${minX},${minY})\t${copyText(detection.geometry)}\t` +
          `${detection.measurements === null ? '\\N' : copyText(detection.measurements)}\n`,
      );
      count += 1;
      if (full) {
        await copy.flush();
        await options.onProgress?.(count);
      }
    }
    if (count === 0 && options.allowEmpty !== true)
      throw HttpError.validation({ file: DETECTION_MESSAGES.noFeatures }, DETECTION_MESSAGES.noFeatures);
    await copy.end();
    copying = undefined;
    await options.onProgress?.(count);
    for (const [name, known] of classes.added()) {
      await client.query(
        'INSERT INTO detection_classes (image_layer_id, class_index, name, color) VALUES ($1, $2, $3, $4)',
        [target.layerId, known.index, name, known.color],
      );
    }
    copying = client.query(copyFrom(COPY_CELLS));
    await writeCells(new CopyRows(copying), prefix, cells);
    copying = client.query(copyFrom(COPY_CENTRES));
    await writeCentres(new CopyRows(copying), prefix, centres);
    copying = undefined;
    await client.query('UPDATE detection_sets SET count = $2 WHERE id = $1', [setId, count]);
    await options.beforeCommit?.(client, { setId, count });
    await client.query('COMMIT');
    client.release();
    return { setId, count };
  } catch (error) {
    if (copying === undefined) {
      await client.query('ROLLBACK').catch(() => undefined);
      client.release();
    } else {
      // A COPY cut short leaves the connection unusable: it is closed, which rolls the transaction back. The COPY
      // then fails with "connection terminated", which is expected and not an error of its own.
      copying.on('error', () => undefined);
      copying.destroy();
      client.release(true);
    }
    throw error;
  }
}
