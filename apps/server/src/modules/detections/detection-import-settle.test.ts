import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { factories } from '#test/factories.ts';
import { nucleusLayout, syntheticDetectionsText } from '#test/synthetic-detections.ts';
import { createTestDatabase, type TestDatabase } from '#test/test-database.ts';
import { detectionImports } from '../../db/schema/index.ts';
import { createGivenUpHandlers } from '../../jobs/handlers.ts';
import { FilesystemBlobStore } from '../../storage/filesystem-blob-store.ts';
import { detectionImportJob } from './detection-import.job.ts';
import { detectionImportKey } from './detection-upload.ts';

const NUCLEI = 5_000;

describe('an import settles the objects it stored before it is completed', () => {
  let database: TestDatabase;
  let blobs: FilesystemBlobStore;
  let dir: string;
  let text: string;
  let layer: { imageId: string; layerId: string };
  const log = pino({ level: 'silent' });

  const deps = () => ({ db: database.db, pool: database.pool, blobs, log, maxFeatures: 100_000 });
  const storedRows = async () => {
    const { rows } = await database.db.execute<{ count: number }>(
      sql`SELECT count(*)::int AS count FROM detections WHERE image_layer_id = ${layer.layerId}`,
    );
    return rows[0]!.count;
  };
  const importOf = async (id: string) =>
    (await database.db.select().from(detectionImports).where(eq(detectionImports.id, id)))[0]!;

  /** A waiting import of the layer with its file in the blob store, as the upload route leaves it. */
  const waitingImport = async () => {
    const [row] = await database.db
      .insert(detectionImports)
      .values({ ...layer, imageLayerId: layer.layerId, name: 'nuclei.geojson', bytesTotal: Buffer.byteLength(text) })
      .returning();
    await blobs.put(detectionImportKey(row!.id), Readable.from([text]));
    return row!.id;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'detection-settle-'));
    blobs = new FilesystemBlobStore(dir);
    const make = factories(database.db);
    const imageId = await make.image(await make.case());
    layer = { imageId, layerId: await make.imageLayer(imageId, { width: 9_000, height: 7_000 }) };
    text = await syntheticDetectionsText(nucleusLayout({ x: 0, y: 0, width: 9_000, height: 7_000 }, NUCLEI));
  });
  afterAll(async () => {
    await database.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  // Left to autovacuum, every page the import wrote is read and written again a minute later, under the first views.
  it('leaves every page of objects it wrote all-visible, and the table analysed', async () => {
    const importId = await waitingImport();
    await detectionImportJob(deps(), { importId, retryCount: 0, retryLimit: 0 });
    expect(await importOf(importId)).toMatchObject({ status: 'completed', featuresRead: NUCLEI });
    // The pages holding objects: the bulk COPY also leaves empty pages at the end, which VACUUM keeps for inserts.
    const { rows } = await database.db.execute<{
      filled: number;
      visible: number;
      vacuumed: boolean;
      analysed: boolean;
    }>(sql`
      SELECT (SELECT count(DISTINCT (ctid::text::point)[0])::int FROM detections) AS filled,
             c.relallvisible AS visible, s.last_vacuum IS NOT NULL AS vacuumed, s.last_analyze IS NOT NULL AS analysed
      FROM pg_class c JOIN pg_stat_user_tables s ON s.relid = c.oid WHERE c.relname = 'detections'`);
    expect(rows[0]!.filled).toBeGreaterThan(0);
    expect(rows[0]).toEqual({ filled: rows[0]!.filled, visible: rows[0]!.filled, vacuumed: true, analysed: true });
    expect(await blobs.exists(detectionImportKey(importId))).toBe(false);
  });

  it('settles and completes, without storing twice, an import whose worker died after storing it', async () => {
    const importId = await waitingImport();
    const before = await storedRows();
    await detectionImportJob(deps(), { importId, retryCount: 0, retryLimit: 2 });
    // The worker died between the stored set and its settling: the import is running again for pg-boss's retry.
    await database.db.update(detectionImports).set({ status: 'running' }).where(eq(detectionImports.id, importId));
    await blobs.put(detectionImportKey(importId), Readable.from([text]));
    await detectionImportJob(deps(), { importId, retryCount: 1, retryLimit: 2 });
    expect(await storedRows()).toBe(before + NUCLEI);
    expect(await importOf(importId)).toMatchObject({
      status: 'completed',
      featuresRead: NUCLEI,
      bytesRead: Buffer.byteLength(text),
    });
  });

  it('is completed, not failed, when the last attempt dies after storing its objects', async () => {
    const importId = await waitingImport();
    await detectionImportJob(deps(), { importId, retryCount: 0, retryLimit: 0 });
    await database.db.update(detectionImports).set({ status: 'running' }).where(eq(detectionImports.id, importId));
    await createGivenUpHandlers({ db: database.db, log })['detection-import']!({ importId });
    expect(await importOf(importId)).toMatchObject({ status: 'completed', errorMessage: null });
  });
});
