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

/**
 * The grid counts of zoomed-out views for one import, counted as its objects go by (per cell size, class and cell
 * that holds the centre of the object's box, as `center(bbox)` in SQL gives it) rather than read back from the
 * million rows once they are stored.
 */
export class CellCounts {
  /** Per cell size, per class: count by cell key. */
  private readonly grids = CELL_SIZES.map((cellSize) => ({
    cellSize,
    classes: new Map<number, Map<number, number>>(),
  }));

  add(classIndex: number, [minX, minY, maxX, maxY]: readonly [number, number, number, number]): void {
    // The same float arithmetic as PostgreSQL's box centre (high + low) / 2 and floor(x / size).
    const [x, y] = [(maxX + minX) / 2, (maxY + minY) / 2];
    for (const { cellSize, classes } of this.grids) {
      let cells = classes.get(classIndex);
      if (cells === undefined) {
        cells = new Map();
        classes.set(classIndex, cells);
      }
      const key = Math.floor(y / cellSize) * ROW_KEYS + Math.floor(x / cellSize);
      cells.set(key, (cells.get(key) ?? 0) + 1);
    }
  }

  *rows(): Generator<CellRow> {
    for (const { cellSize, classes } of this.grids) {
      for (const [classIndex, cells] of classes) {
        for (const [key, count] of cells) {
          const row = Math.floor(key / ROW_KEYS);
          yield { cellSize, classIndex, column: key - row * ROW_KEYS, row, count };
        }
      }
    }
  }
}
