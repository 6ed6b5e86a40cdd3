import type { DrawingGeometry } from '@pathology/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layerWithImports } from '#test/detection-layer.ts';
import { createTestDatabase, type TestDatabase } from '#test/test-database.ts';
import { createDetectionRepository } from './detection.repository.ts';
import { drawingArea, type DrawingArea } from './drawing-area.ts';

const polygon = (ring: [number, number][]): DrawingGeometry => ({
  type: 'Polygon',
  coordinates: [[...ring, ring[0]!]],
});

const SHAPES: Record<string, DrawingGeometry> = {
  rectangle: polygon([
    [1000.5, 700],
    [7000, 700],
    [7000, 5300.25],
    [1000.5, 5300.25],
  ]),
  concave: polygon([
    [300, 300],
    [8000, 900],
    [3000, 3000],
    [8500, 6500],
    [500, 6000],
    [2500, 3300],
  ]),
  ellipse: { type: 'Ellipse', center: [4500, 3500], radii: [3900, 2700] },
  // Over 1,000,000 cells of 256 pixels: counted on a coarser grid, its border cells tested 256 pixels at a time.
  huge: polygon([
    [-100_000, -100_000],
    [200_000, -100_000],
    [5000, 3500],
    [-100_000, 200_000],
  ]),
};

describe('counting inside a drawing', () => {
  let database: TestDatabase;
  let layerId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    ({ layerId } = await layerWithImports(database, [
      [{ x: 3, y: 7, width: 8_990, height: 6_980 }, 20_000],
      [{ x: 0, y: 0, width: 4_096, height: 2_048 }, 2_000],
    ]));
  });
  afterAll(async () => {
    await database.close();
  });

  /** The definition: every object whose box's centre the drawing's outline holds, per class. */
  async function exactly(area: DrawingArea) {
    const { rows } = await database.db.execute<{ classIndex: number; count: number }>(sql`
      SELECT class_index AS "classIndex", count(*)::int AS count FROM detections
      WHERE image_layer_id = ${layerId} AND ${area.polygon}::polygon @> center(bbox) GROUP BY 1`);
    return new Map(rows.map((row) => [row.classIndex, row.count]));
  }

  it("counts exactly from the grid and the stored centres alone, never reading the objects' rows", async () => {
    const repository = createDetectionRepository(database.db);
    const areas = Object.entries(SHAPES).map(([name, shape]) => ({ name, area: drawingArea(shape)! }));
    const counted = new Map<string, Map<number, number>>();
    for (const { name, area } of areas) {
      const expected = await exactly(area);
      expect(
        [...expected.values()].reduce((a, b) => a + b),
        name,
      ).toBeGreaterThan(1_000);
      const count = await repository.countInArea(layerId, area);
      expect(count, name).toEqual(expected);
      counted.set(name, count);
    }
    // With the objects gone, the counts stay: they come from what the import wrote beside them.
    await database.db.execute(sql`DELETE FROM detections WHERE image_layer_id = ${layerId}`);
    for (const { name, area } of areas)
      expect(await repository.countInArea(layerId, area), name).toEqual(counted.get(name));
  });
});
