import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { badDetectionFeatureMessage, DETECTION_MESSAGES, detectionFeatureField } from '@pathology/contract';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import chain from 'stream-chain';
import { parser } from 'stream-json';
import pick from 'stream-json/filters/pick.js';
import streamArray from 'stream-json/streamers/stream-array.js';
import { HttpError } from '../../http/http-error.ts';
import { CELL_SIZES } from './detection-grid.ts';
import { parseDetectionFeature, type ParsedDetection } from './detection-feature.ts';

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

/** Rows handed to COPY at a time: big enough that the stream's own overhead disappears. */
const COPY_CHUNK_CHARS = 256 * 1024;

const COPY_SQL =
  'COPY detections (set_id, image_layer_id, class_index, bbox, geometry, measurements) FROM STDIN (FORMAT csv)';

const csvText = (text: string) => `"${text.replaceAll('"', '""')}"`;

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

const invalidFeature = (index: number, reason: string) =>
  HttpError.validation({ [detectionFeatureField(index)]: reason }, badDetectionFeatureMessage(index, reason));

/**
 * The features of a GeoJSON FeatureCollection as they are parsed from the stream, one at a time: the file is never
 * held in memory. `onBytes` is told the bytes read so far. Anything that is not JSON ends it with a 422.
 */
export async function* featuresOf(source: Readable, onBytes?: (bytes: number) => void): AsyncGenerator<unknown> {
  const items = chain([parser(), pick({ filter: 'features' }), streamArray()]);
  let bytes = 0;
  source.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    onBytes?.(bytes);
  });
  // A failed read (disk, network) is not the file's fault: it is thrown as it is, so the job retries.
  let unreadable: Error | undefined;
  source.on('error', (error) => {
    unreadable = error;
    items.destroy(error);
  });
  source.pipe(items);
  try {
    for await (const item of items as AsyncIterable<{ value: unknown }>) yield item.value;
  } catch (error) {
    if (error instanceof HttpError || unreadable !== undefined) throw unreadable ?? error;
    throw HttpError.validation({ file: DETECTION_MESSAGES.notGeoJson }, DETECTION_MESSAGES.notGeoJson);
  } finally {
    source.unpipe(items);
    source.destroy();
  }
}

export interface StoreOptions {
  maxFeatures: number;
  /** Stores a set of no detections rather than refusing it (a model that found none has still run). */
  allowEmpty?: boolean;
  /** Told the features stored so far now and then; a throw stops the import, storing nothing. */
  onProgress?: (features: number) => Promise<void>;
  /** Runs in the import's transaction just before it commits: whatever records the outcome commits with it. */
  beforeCommit?: (client: pg.PoolClient, stored: { setId: string; count: number }) => Promise<void>;
}

/**
 * Stores GeoJSON features of detections (an imported file's, a model's) as one set on a layer in one transaction:
 * rows go to PostgreSQL by COPY as they come, then the grid counts of zoomed-out views are written. The first bad
 * feature is a 422 naming it, and a failed import stores nothing. Imports onto one layer take turns (class numbers
 * are per layer).
 */
export async function storeDetections(
  pool: pg.Pool,
  features: AsyncIterable<unknown>,
  target: ImportTarget,
  options: StoreOptions,
): Promise<{ setId: string; count: number }> {
  const client = await pool.connect();
  let copying: ReturnType<typeof copyFrom> | undefined;
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`detections:${target.layerId}`]);
    const classes = await layerClasses(client, target.layerId);
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO detection_sets (image_id, image_layer_id, account_id, name, prediction_id)
       VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [target.imageId, target.layerId, target.accountId, target.name, target.predictionId ?? null],
    );
    const setId = rows[0]!.id;
    const copy = client.query(copyFrom(COPY_SQL));
    copying = copy;
    const prefix = `${setId},${target.layerId},`;
    let count = 0;
    let pending = '';
    for await (const feature of features) {
      if (count >= options.maxFeatures) {
        throw HttpError.validation({ file: DETECTION_MESSAGES.tooManyFeatures }, DETECTION_MESSAGES.tooManyFeatures);
      }
      const detection = parseDetectionFeature(feature, target.size);
      if (typeof detection === 'string') throw invalidFeature(count, detection);
      const [minX, minY, maxX, maxY] = detection.bbox;
      pending +=
        `${prefix}${classes.indexOf(detection)},"(${maxX},${maxY}),(${minX},${minY})",${csvText(detection.geometry)},` +
        `${detection.measurements === null ? '' : csvText(detection.measurements)}\n`;
      count += 1;
      if (pending.length >= COPY_CHUNK_CHARS) {
        if (!copy.write(pending)) await once(copy, 'drain');
        pending = '';
        await options.onProgress?.(count);
      }
    }
    if (count === 0 && options.allowEmpty !== true)
      throw HttpError.validation({ file: DETECTION_MESSAGES.noFeatures }, DETECTION_MESSAGES.noFeatures);
    copy.end(pending);
    await finished(copy);
    copying = undefined;
    await options.onProgress?.(count);
    for (const [name, known] of classes.added()) {
      await client.query(
        'INSERT INTO detection_classes (image_layer_id, class_index, name, color) VALUES ($1, $2, $3, $4)',
        [target.layerId, known.index, name, known.color],
      );
    }
    await client.query(
      `INSERT INTO detection_cells (set_id, image_layer_id, cell_size, class_index, cell_column, cell_row, count)
       SELECT d.set_id, d.image_layer_id, s.size, d.class_index,
              floor((center(d.bbox))[0] / s.size)::int, floor((center(d.bbox))[1] / s.size)::int, count(*)::int
       FROM detections d CROSS JOIN unnest($2::int[]) AS s(size)
       WHERE d.set_id = $1
       GROUP BY 1, 2, 3, 4, 5, 6`,
      [setId, [...CELL_SIZES]],
    );
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
