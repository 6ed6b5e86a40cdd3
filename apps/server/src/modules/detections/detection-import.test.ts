import fs from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layerWithImports } from '#test/detection-layer.ts';
import { createTestDatabase, type TestDatabase } from '#test/test-database.ts';
import { migrationsFolder } from '../../db/migrate.ts';
import { CELL_SIZES } from './detection-grid.ts';

describe('storing an import', () => {
  let database: TestDatabase;
  let layerId: string;

  const storedCells = async () =>
    (
      await database.db.execute(sql`
        SELECT set_id, cell_size, class_index, cell_column, cell_row, count FROM detection_cells
        WHERE image_layer_id = ${layerId} ORDER BY 1, 2, 3, 4, 5`)
    ).rows;
  // Each cell's centres as text, sorted: PostgreSQL writes a double's shortest exact text, so equal text is equal value.
  const storedCentres = async () =>
    (
      await database.db.execute(sql`
        SELECT set_id, class_index, cell_column, cell_row,
               (SELECT array_agg(p::text ORDER BY p::text) FROM unnest(centres) AS p) AS centres
        FROM detection_centres WHERE image_layer_id = ${layerId} ORDER BY 1, 2, 3, 4`)
    ).rows;

  beforeAll(async () => {
    database = await createTestDatabase();
    // Two imports on one layer, on grids that put centres on and off cell edges.
    const layer = await layerWithImports(database, [
      [{ x: 3, y: 7, width: 8_990, height: 6_980 }, 3_000],
      [{ x: 0, y: 0, width: 4_096, height: 2_048 }, 512],
    ]);
    expect(layer.stored).toEqual([3_000, 512]);
    layerId = layer.layerId;
  });
  afterAll(async () => {
    await database.close();
  });

  it('writes the grid counts that its stored objects give', async () => {
    const fromRows = await database.db.execute(sql`
      SELECT d.set_id, s.size AS cell_size, d.class_index, floor((center(d.bbox))[0] / s.size)::int AS cell_column,
             floor((center(d.bbox))[1] / s.size)::int AS cell_row, count(*)::int AS count
      FROM detections d CROSS JOIN unnest(${sql.param([...CELL_SIZES])}::int[]) AS s(size)
      WHERE d.image_layer_id = ${layerId}
      GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5`);
    const stored = await storedCells();
    expect(stored.length).toBeGreaterThan(1_000);
    expect(stored).toEqual(fromRows.rows);
  });

  it('writes per class and 256-pixel cell exactly the centres that center(bbox) gives its stored objects', async () => {
    const fromRows = await database.db.execute(sql`
      SELECT set_id, class_index, floor((center(bbox))[0] / 256)::int AS cell_column,
             floor((center(bbox))[1] / 256)::int AS cell_row, array_agg(center(bbox)::text ORDER BY center(bbox)::text) AS centres
      FROM detections WHERE image_layer_id = ${layerId}
      GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`);
    const stored = await storedCentres();
    expect(stored.length).toBeGreaterThan(1_000);
    expect(stored).toEqual(fromRows.rows);
  });

  it('gives imports stored before migration 0014 the centres and 1024-pixel counts an import writes', async () => {
    const [cells, centres] = [await storedCells(), await storedCentres()];
    await database.db.execute(sql`DELETE FROM detection_centres`);
    await database.db.execute(sql`DELETE FROM detection_cells WHERE cell_size = 1024`);
    const migration = await fs.readFile(path.join(migrationsFolder, '0014_detection_centres.sql'), 'utf8');
    const fills = migration.split('--> statement-breakpoint').filter((statement) => statement.includes('INSERT'));
    expect(fills).toHaveLength(2);
    for (const statement of fills) await database.db.execute(sql.raw(statement));
    expect(await storedCells()).toEqual(cells);
    expect(await storedCentres()).toEqual(centres);
  });
});
