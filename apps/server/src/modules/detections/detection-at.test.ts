import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layerWithImports } from '#test/detection-layer.ts';
import { createTestDatabase, type TestDatabase } from '#test/test-database.ts';
import { createDetectionRepository, objectsAtQuery } from './detection.repository.ts';

describe('the objects under a point', () => {
  let database: TestDatabase;
  let layerId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    ({ layerId } = await layerWithImports(database, [[{ x: 0, y: 0, width: 4_000, height: 3_000 }, 2_000]]));
  });
  afterAll(async () => {
    await database.close();
  });

  it('are those whose box holds it, smallest first', async () => {
    const { rows } = await database.db.execute<{ x: number; y: number }>(sql`
      SELECT (center(bbox))[0] AS x, (center(bbox))[1] AS y
      FROM detections WHERE image_layer_id = ${layerId} LIMIT 1`);
    const { x, y } = rows[0]!;
    const found = await createDetectionRepository(database.db).objectsAt(layerId, x, y);
    expect(found.length).toBeGreaterThan(0);
    const { rows: expected } = await database.db.execute<{ id: string }>(sql`
      SELECT id::text FROM detections WHERE image_layer_id = ${layerId} AND bbox @> point(${x}, ${y})
      ORDER BY area(bbox), id`);
    expect(found.map((row) => row.id).sort()).toEqual(expected.map((row) => row.id).sort());
    expect(await createDetectionRepository(database.db).objectsAt(layerId, -5, -5)).toEqual([]);
  });

  // A hover over a slide of a million objects otherwise reads all of them.
  it('are found through the index of boxes, not by reading the table', async () => {
    const plan = await database.db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL enable_seqscan = off`);
      const { rows } = await tx.execute<{ 'QUERY PLAN': unknown }>(
        sql`EXPLAIN (FORMAT JSON) ${objectsAtQuery(layerId, 100, 100)}`,
      );
      return JSON.stringify(rows[0]!['QUERY PLAN']);
    });
    expect(plan).toContain('detections_bbox_idx');
    expect(plan).not.toContain('Seq Scan');
  });
});
