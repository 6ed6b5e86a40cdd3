import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { accountName } from '../accounts/account-name.ts';
import { areaCells, type CellRun } from './area-cells.ts';
import { CELL_SIZES, CENTRE_CELL_SIZE, type CellCount, type Region } from './detection-grid.ts';
import type { MarkBox } from './detection-marks.ts';
import type { DrawingArea } from './drawing-area.ts';

/** PostgreSQL `box` text of a region. */
const boxOf = (region: Region) => `(${region.x + region.width},${region.y + region.height}),(${region.x},${region.y})`;

/** The objects of a layer overlapping a region (GiST on `bbox`), but those of the classes a tile leaves out. */
const overlapping = (layerId: string, region: Region, hidden: readonly number[]) => sql`
  bbox && ${boxOf(region)}::box AND image_layer_id = ${layerId}
  AND class_index <> ALL(${sql.param([...hidden])}::smallint[])`;

/**
 * The objects under a point. The point is asked as a box of no size: GiST's box operators take boxes only, and
 * `box @> point` read every row of the table (a parallel scan of ~430 ms at 1,000,000 objects, on each hover).
 */
export const objectsAtQuery = (layerId: string, x: number, y: number) => sql`
  SELECT id::text, class_index AS "classIndex", geometry, measurements FROM detections
  WHERE bbox @> box(point(${x}, ${y}), point(${x}, ${y})) AND image_layer_id = ${layerId}
  ORDER BY area(bbox) LIMIT 20`;

export type DetectionRow = {
  id: string;
  classIndex: number;
  geometry: string;
  measurements: string | null;
};

export type OutlineRow = { classIndex: number; geometry: string };

export type ExportRow = { id: number; classIndex: number; geometry: string; measurements: string | null };

/** Cells at most in the grid a count walks: a drawing over a whole large slide takes coarser cells. */
const MAX_COUNT_CELLS = 1_000_000;

/** The finest stored cell size whose grid under the ring stays small. */
function countCellSize(ring: DrawingArea['ring']): number {
  const xs = ring.map(([x]) => x);
  const ys = ring.map(([, y]) => y);
  const span = (size: number, values: number[]) =>
    Math.floor(Math.max(...values) / size) - Math.floor(Math.min(...values) / size) + 1;
  return CELL_SIZES.find((size) => span(size, xs) * span(size, ys) <= MAX_COUNT_CELLS) ?? CELL_SIZES.at(-1)!;
}

/** Rows per round trip while an export streams. */
const EXPORT_BATCH = 10_000;

export function createDetectionRepository(db: Db) {
  return {
    /** The layer's imports, newest first, with their importer's name. */
    async sets(layerId: string) {
      const { rows } = await db.execute<{
        id: string;
        imageId: string;
        imageLayerId: string;
        accountId: string | null;
        name: string;
        count: number;
        authorName: string | null;
        createdAt: string;
      }>(sql`
        SELECT s.id, s.image_id AS "imageId", s.image_layer_id AS "imageLayerId", s.account_id AS "accountId",
               s.name, s.count, ${accountName} AS "authorName", to_json(s.created_at)#>>'{}' AS "createdAt"
        FROM detection_sets s LEFT JOIN accounts ON accounts.id = s.account_id
        WHERE s.image_layer_id = ${layerId} ORDER BY s.created_at DESC, s.id`);
      return rows;
    },

    /** The layer's classes with how many detections each has (classes left without any are left out). */
    async classes(layerId: string) {
      const { rows } = await db.execute<{ index: number; name: string; color: string; count: number }>(sql`
        SELECT c.class_index AS index, c.name, c.color, sum(g.count)::int AS count
        FROM detection_classes c
        JOIN detection_cells g ON g.image_layer_id = c.image_layer_id AND g.class_index = c.class_index
          AND g.cell_size = (SELECT max(cell_size) FROM detection_cells WHERE image_layer_id = ${layerId})
        WHERE c.image_layer_id = ${layerId}
        GROUP BY c.class_index, c.name, c.color ORDER BY c.class_index`);
      return rows;
    },

    /**
     * What a layer's detection tiles depend on, as text: its imports (ids, in a fixed order), with its classes'
     * colours, in one round trip (a tile asks it at every request). An import or a deletion changes the version, so a
     * tile cached under it is never stale.
     */
    async tileBasis(layerId: string): Promise<{ version: string; colors: Map<number, string> }> {
      const { rows } = await db.execute<{ version: string; colors: [number, string][] }>(sql`
        SELECT (SELECT coalesce(string_agg(id::text, ',' ORDER BY id), '') FROM detection_sets
                WHERE image_layer_id = ${layerId}) AS version,
               (SELECT coalesce(json_agg(json_build_array(class_index, color)), '[]') FROM detection_classes
                WHERE image_layer_id = ${layerId}) AS colors`);
      return { version: rows[0]!.version, colors: new Map(rows[0]!.colors) };
    },

    /**
     * About how many objects a region holds, from the finest grid counts of the cells it touches (a little more than
     * it holds, as edge cells count whole): cheap at any size, where counting the objects is not.
     */
    async estimateIn(layerId: string, region: Region): Promise<number> {
      const size = CELL_SIZES[0];
      const { rows } = await db.execute<{ count: number }>(sql`
        SELECT coalesce(sum(count), 0)::int AS count FROM detection_cells
        WHERE image_layer_id = ${layerId} AND cell_size = ${size}
          AND cell_row BETWEEN ${Math.floor(region.y / size)} AND ${Math.floor((region.y + region.height) / size)}
          AND cell_column BETWEEN ${Math.floor(region.x / size)} AND ${Math.floor((region.x + region.width) / size)}`);
      return rows[0]!.count;
    },

    /** The boxes of the objects overlapping a region, but those of hidden classes: enough to mark each. */
    async boxesIn(layerId: string, region: Region, hidden: readonly number[] = []): Promise<MarkBox[]> {
      const { rows } = await db.execute<MarkBox>(sql`
        SELECT class_index AS "classIndex", (bbox[1])[0] AS "minX", (bbox[1])[1] AS "minY",
               (bbox[0])[0] AS "maxX", (bbox[0])[1] AS "maxY"
        FROM detections
        WHERE ${overlapping(layerId, region, hidden)}`);
      return rows;
    },

    /** The objects overlapping a region (GiST on `bbox`), but those of hidden classes. */
    async objectsIn(layerId: string, region: Region, hidden: readonly number[] = []): Promise<DetectionRow[]> {
      const { rows } = await db.execute<DetectionRow>(sql`
        SELECT id::text, class_index AS "classIndex", geometry, measurements FROM detections
        WHERE ${overlapping(layerId, region, hidden)}`);
      return rows;
    },

    /**
     * The classes and outlines of the objects overlapping a region, but those of hidden classes (what a tile draws), or
     * undefined when their geometry takes more than `maxBytes` as stored: told from the stored sizes, before any of
     * it is sent.
     */
    async outlinesIn(
      layerId: string,
      region: Region,
      hidden: readonly number[],
      maxBytes: number,
    ): Promise<OutlineRow[] | undefined> {
      // One round trip: the objects' stored size comes first, and their rows only when it is within the limit (a
      // single row of nulls otherwise, or when there are none).
      const { rows } = await db.execute<{ classIndex: number | null; geometry: string | null; bytes: number }>(sql`
        WITH hits AS MATERIALIZED (
          SELECT class_index, geometry FROM detections WHERE ${overlapping(layerId, region, hidden)}
        ), size AS (SELECT coalesce(sum(pg_column_size(geometry)), 0)::float8 AS bytes FROM hits)
        SELECT h.class_index AS "classIndex", h.geometry, s.bytes FROM size s LEFT JOIN hits h ON s.bytes <= ${maxBytes}`);
      if (rows[0]!.bytes > maxBytes) return undefined;
      return rows[0]!.geometry === null ? [] : (rows as OutlineRow[]);
    },

    /** Counts per class and cell of `cellSize` over a region, summed across the layer's imports. */
    async cellsIn(layerId: string, cellSize: number, region: Region): Promise<CellCount[]> {
      const [first, last] = [
        [Math.floor(region.x / cellSize), Math.floor(region.y / cellSize)],
        [Math.floor((region.x + region.width) / cellSize), Math.floor((region.y + region.height) / cellSize)],
      ] as const;
      const { rows } = await db.execute<CellCount>(sql`
        SELECT cell_column AS column, cell_row AS row, class_index AS "classIndex", sum(count)::int AS count
        FROM detection_cells
        WHERE image_layer_id = ${layerId} AND cell_size = ${cellSize}
          AND cell_row BETWEEN ${first[1]} AND ${last[1]} AND cell_column BETWEEN ${first[0]} AND ${last[0]}
        GROUP BY cell_column, cell_row, class_index`);
      return rows;
    },

    /** Objects whose box holds a point, smallest first: the caller keeps the first whose outline holds it. */
    async objectsAt(layerId: string, x: number, y: number): Promise<DetectionRow[]> {
      const { rows } = await db.execute<DetectionRow>(objectsAtQuery(layerId, x, y));
      return rows;
    },

    /**
     * Objects per class whose centre (of their box) lies inside a drawing: the grid counts of cells it covers whole,
     * plus the exact test (`polygon @> point`) of the stored centres in the cells its outline crosses — a few bytes per
     * object in rows of their own, so a long outline over dense cells never reads the objects' wide rows.
     */
    async countInArea(layerId: string, area: DrawingArea): Promise<Map<number, number>> {
      const cells = areaCells(area.ring, countCellSize(area.ring));
      const size = cells.cellSize;
      // Centre cells per grid cell along a side: a border cell of a coarser grid is tested centre cell by centre cell.
      const per = size / CENTRE_CELL_SIZE;
      const runs = (list: readonly CellRun[]) => sql`unnest(
        ${sql.param(list.map((run) => run.row))}::int[],
        ${sql.param(list.map((run) => run.first))}::int[],
        ${sql.param(list.map((run) => run.last))}::int[]) AS r(row, first, last)`;
      const { rows } = await db.execute<{ classIndex: number; count: number }>(sql`
        SELECT "classIndex", sum(count)::int AS count FROM (
          SELECT c.class_index AS "classIndex", sum(c.count) AS count
          FROM ${runs(cells.inside)}
          JOIN detection_cells c ON c.cell_row = r.row AND c.cell_column BETWEEN r.first AND r.last
          WHERE c.image_layer_id = ${layerId} AND c.cell_size = ${size}
          GROUP BY c.class_index
          UNION ALL
          SELECT c.class_index, count(*)
          FROM ${runs(cells.border)}
          JOIN detection_centres c ON c.cell_row BETWEEN r.row * ${per} AND (r.row + 1) * ${per} - 1
            AND c.cell_column BETWEEN r.first * ${per} AND (r.last + 1) * ${per} - 1
          CROSS JOIN LATERAL unnest(c.centres) AS p(centre)
          WHERE c.image_layer_id = ${layerId} AND ${area.polygon}::polygon @> p.centre
          GROUP BY c.class_index
        ) AS parts GROUP BY "classIndex"`);
      return new Map(rows.map((row) => [row.classIndex, row.count]));
    },

    /** The layer's detections in batches, import by import in file order (keyset on the set's index). */
    async *exportBatches(layerId: string): AsyncGenerator<ExportRow[]> {
      const sets = await db.execute<{ id: string }>(
        sql`SELECT id FROM detection_sets WHERE image_layer_id = ${layerId} ORDER BY created_at, id`,
      );
      for (const { id: setId } of sets.rows) {
        let after = 0;
        for (;;) {
          const { rows } = await db.execute<ExportRow>(sql`
            SELECT id::float8 AS id, class_index AS "classIndex", geometry, measurements FROM detections
            WHERE set_id = ${setId} AND id > ${after} ORDER BY id LIMIT ${EXPORT_BATCH}`);
          if (rows.length > 0) yield rows;
          if (rows.length < EXPORT_BATCH) break;
          after = rows.at(-1)!.id;
        }
      }
    },

    async findSet(layerId: string, setId: string): Promise<{ accountId: string | null } | undefined> {
      const { rows } = await db.execute<{ accountId: string | null }>(sql`
        SELECT account_id AS "accountId" FROM detection_sets WHERE id = ${setId} AND image_layer_id = ${layerId}`);
      return rows[0];
    },

    async deleteSet(setId: string): Promise<void> {
      await db.execute(sql`DELETE FROM detection_sets WHERE id = ${setId}`);
    },
  };
}

export type DetectionRepository = ReturnType<typeof createDetectionRepository>;
