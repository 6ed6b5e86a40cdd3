import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import pino from 'pino';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { factories } from '#test/factories.ts';
import { nucleusLayout, syntheticDetectionsText } from '#test/synthetic-detections.ts';
import { createTestDatabase, type TestDatabase } from '#test/test-database.ts';
import { detectionImports } from '../../db/schema/index.ts';
import { FilesystemBlobStore } from '../../storage/filesystem-blob-store.ts';
import { drawsOutlines, MAX_OUTLINES_BELOW_FULL, OUTLINE_SCALE } from './detection-grid.ts';
import { detectionImportJob } from './detection-import.job.ts';
import { renderDetectionTile } from './detection-tiles.ts';
import { detectionImportKey } from './detection-upload.ts';
import { createDetectionRepository, type DetectionRepository } from './detection.repository.ts';

/** A 2048-pixel square of tissue with 6,000 nuclei, ~26 pixels apart: a dense 20× slide's nuclei. */
const SIDE = 2_048;
const NUCLEI = 6_000;
/** OpenSeadragon's levels for 2048 pixels: 11 is full resolution, 10 half of it. */
const FULL = 11;
const STYLE = { hide: '', fill: 0.25, line: 1 };

describe('detection tiles below full resolution where objects are dense', () => {
  let database: TestDatabase;
  let dir: string;
  let layerId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'detection-lod-'));
    const blobs = new FilesystemBlobStore(dir);
    const make = factories(database.db);
    const imageId = await make.image(await make.case());
    layerId = await make.imageLayer(imageId, { width: SIDE, height: SIDE });
    const text = await syntheticDetectionsText(nucleusLayout({ x: 0, y: 0, width: SIDE, height: SIDE }, NUCLEI));
    const [row] = await database.db
      .insert(detectionImports)
      .values({ imageId, imageLayerId: layerId, name: 'nuclei.geojson', bytesTotal: Buffer.byteLength(text) })
      .returning();
    await blobs.put(detectionImportKey(row!.id), Readable.from([text]));
    const deps = { db: database.db, pool: database.pool, blobs, log: pino({ level: 'silent' }), maxFeatures: NUCLEI };
    await detectionImportJob(deps, { importId: row!.id, retryCount: 0, retryLimit: 0 });
  });
  afterAll(async () => {
    await database.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  /** The tile's reads of the repository, and how many of its pixels have each opacity. */
  async function drawn(level: number) {
    const repository = createDetectionRepository(database.db);
    const reads: string[] = [];
    const recording = new Proxy(repository, {
      get: (target, name: keyof DetectionRepository) => {
        const method = Reflect.get(target, name) as (...args: unknown[]) => unknown;
        return (...args: unknown[]) => (reads.push(name), method.apply(target, args));
      },
    });
    const colors = new Map([0, 1, 2, 3].map((index) => [index, '#c80000']));
    const layer = { id: layerId, width: SIDE, height: SIDE, colors };
    const png = await renderDetectionTile(recording, layer, { level, column: 0, row: 0 }, STYLE);
    const { data } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    const alphas = new Map<number, number>();
    for (let at = 3; at < data.length; at += 4) alphas.set(data[at]!, (alphas.get(data[at]!) ?? 0) + 1);
    return { reads, alphas };
  }

  it('reads the outlines of a region in one query, none past a size limit, and an empty list where there are none', async () => {
    const repository = createDetectionRepository(database.db);
    const region = { x: 0, y: 0, width: 512, height: 512 };
    const rows = await repository.outlinesIn(layerId, region, [], 16 * 1024 * 1024);
    expect(rows!.length).toBeGreaterThan(300);
    expect(rows!.every((row) => row.geometry.includes('Polygon') && Number.isInteger(row.classIndex))).toBe(true);
    expect(await repository.outlinesIn(layerId, region, [], 1_000)).toBeUndefined();
    expect(await repository.outlinesIn(layerId, region, [0, 1, 2, 3], 1_000)).toEqual([]);
    expect(await repository.outlinesIn(layerId, { x: 5_000, y: 5_000, width: 512, height: 512 }, [], 1_000)).toEqual(
      [],
    );
  });

  it('paints outlines up to about a thousand objects a tile, and at full resolution always', () => {
    expect(drawsOutlines(1, 5 * MAX_OUTLINES_BELOW_FULL)).toBe(true);
    expect(drawsOutlines(OUTLINE_SCALE, MAX_OUTLINES_BELOW_FULL)).toBe(true);
    expect(drawsOutlines(OUTLINE_SCALE, MAX_OUTLINES_BELOW_FULL + 1)).toBe(false);
    expect(drawsOutlines(OUTLINE_SCALE / 2, 10)).toBe(false);
  });

  it('draws the outlines of the ~400 nuclei of a full-resolution tile, antialiased', async () => {
    const { reads, alphas } = await drawn(FULL);
    expect(reads).toEqual(['estimateIn', 'outlinesIn']);
    // Skia's antialiasing leaves many opacities along the outlines, not just the fill's and the line's.
    expect(alphas.size).toBeGreaterThan(10);
  });

  it('draws the ~1,500 nuclei of a half-resolution tile as edged marks from their boxes, without their outlines', async () => {
    const { reads, alphas } = await drawn(FULL - 1);
    expect(reads).toEqual(['estimateIn', 'boxesIn']);
    // Inside at the fill's opacity, edged at the line's over it, nothing between; nuclei cover about a third.
    expect([...alphas.keys()].sort((a, b) => a - b)).toEqual([0, Math.round(255 * STYLE.fill), 255]);
    const inside = alphas.get(Math.round(255 * STYLE.fill))!;
    const edge = alphas.get(255)!;
    expect(inside).toBeGreaterThan(0.05 * 512 * 512);
    expect(edge).toBeGreaterThan(0.05 * 512 * 512);
    expect(inside + edge).toBeLessThan(0.6 * 512 * 512);
  });
});
