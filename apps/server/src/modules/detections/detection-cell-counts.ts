import { CELL_SIZES } from './detection-grid.ts';

/** One row of `detection_cells` but its set and layer. */
export interface CellRow {
  cellSize: number;
  classIndex: number;
  column: number;
  row: number;
  count: number;
}

/** Cells of one row of the grid a key holds apart: a cell's key is `row * ROW_KEYS + column`. */
const ROW_KEYS = 2 ** 26;

export type CellKey = number;

/** The centre of a box [minX, minY, maxX, maxY]: the same float arithmetic as PostgreSQL's `center(box)`. */
export const boxCentre = ([minX, minY, maxX, maxY]: readonly [number, number, number, number]) =>
  [(maxX + minX) / 2, (maxY + minY) / 2] as const;

/** The key of the cell of `cellSize` holding a point, as `floor(x / size)` in SQL gives it. */
export const cellKey = (x: number, y: number, cellSize: number): CellKey =>
  Math.floor(y / cellSize) * ROW_KEYS + Math.floor(x / cellSize);

/** One class's cells in a per-class map, made on the class's first object. */
export function cellsOfClass<V>(classes: Map<number, Map<CellKey, V>>, classIndex: number): Map<CellKey, V> {
  let cells = classes.get(classIndex);
  if (cells === undefined) {
    cells = new Map();
    classes.set(classIndex, cells);
  }
  return cells;
}

export function keyCell(key: CellKey): { column: number; row: number } {
  const row = Math.floor(key / ROW_KEYS);
  return { column: key - row * ROW_KEYS, row };
}

/**
 * The grid counts of zoomed-out views for one import, counted as its objects go by (per cell size, class and cell
 * that holds the centre of the object's box, as `center(bbox)` in SQL gives it) rather than read back from the
 * million rows once they are stored.
 */
export class CellCounts {
  /** Per cell size, per class: count by cell key. */
  private readonly grids = CELL_SIZES.map((cellSize) => ({
    cellSize,
    classes: new Map<number, Map<CellKey, number>>(),
  }));

  add(classIndex: number, bbox: readonly [number, number, number, number]): void {
    const [x, y] = boxCentre(bbox);
    for (const { cellSize, classes } of this.grids) {
      const cells = cellsOfClass(classes, classIndex);
      const key = cellKey(x, y, cellSize);
      cells.set(key, (cells.get(key) ?? 0) + 1);
    }
  }

  *rows(): Generator<CellRow> {
    for (const { cellSize, classes } of this.grids) {
      for (const [classIndex, cells] of classes) {
        for (const [key, count] of cells) yield { cellSize, classIndex, ...keyCell(key), count };
      }
    }
  }
}
