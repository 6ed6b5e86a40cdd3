import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { factories } from '#test/factories.ts';
import { nucleusLayout, syntheticDetections } from '#test/synthetic-detections.ts';
import { createTestDatabase, type TestDatabase } from '#test/test-database.ts';
import { featuresOf } from './detection-file.ts';
import { storeDetections } from './detection-import.ts';
import { CELL_SIZES } from './detection-grid.ts';

describe('storing an import', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  it('writes the grid counts that its stored objects give', async () => {
    const make = factories(database.db);
    const imageId = await make.image(await make.case());
    const size = { width: 9_000, height: 7_000 };
    const layerId = await make.imageLayer(imageId, size);
    const target = { imageId, layerId, accountId: null, name: 'nuclei.geojson', size };
    // Two imports on one layer, on grids that put centres on and off cell edges.
    for (const [region, count] of [
      [{ x: 3, y: 7, width: 8_990, height: 6_980 }, 3_000],
      [{ x: 0, y: 0, width: 4_096, height: 2_048 }, 512],
    ] as const) {
      const features = featuresOf(syntheticDetections(nucleusLayout(region, count)));
      expect(await storeDetections(database.pool, features, target, { maxFeatures: 10_000 })).toMatchObject({ count });
    }
    const stored = await database.db.execute(sql`
      SELECT set_id, cell_size, class_index, cell_column, cell_row, count FROM detection_cells
      WHERE image_layer_id = ${layerId} ORDER BY 1, 2, 3, 4, 5`);
    const fromRows = await database.db.execute(sql`
      SELECT d.set_id, s.size AS cell_size, d.class_index, floor((center(d.bbox))[0] / s.size)::int AS cell_column,
             floor((center(d.bbox))[1] / s.size)::int AS cell_row, count(*)::int AS count
      FROM detections d CROSS JOIN unnest(${sql.param([...CELL_SIZES])}::int[]) AS s(size)
      WHERE d.image_layer_id = ${layerId}
      GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5`);
    expect(stored.rows.length).toBeGreaterThan(1_000);
    expect(stored.rows).toEqual(fromRows.rows);
  });
});
