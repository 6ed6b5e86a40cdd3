import { describe, expect, it } from 'vitest';
import { CellCounts } from './detection-cell-counts.ts';
import { CELL_SIZES } from './detection-grid.ts';

describe('grid counts of an import', () => {
  it('counts objects per cell size, class and the cell that holds the centre of their box', () => {
    const counts = new CellCounts();
    counts.add(0, [0, 0, 10, 10]);
    counts.add(0, [250, 250, 262, 262]);
    counts.add(1, [250, 250, 262, 262]);
    // Centre (256, 10.05): on the edge of the second column, which holds it.
    counts.add(0, [250, 0.1, 262, 20]);
    counts.add(0, [70_000, 5_000, 70_010, 5_010]);
    const rows = [...counts.rows()].sort(
      (a, b) => a.cellSize - b.cellSize || a.classIndex - b.classIndex || a.row - b.row || a.column - b.column,
    );
    expect(CELL_SIZES).toEqual([256, 1024, 2048]);
    expect(rows).toEqual([
      { cellSize: 256, classIndex: 0, column: 0, row: 0, count: 1 },
      { cellSize: 256, classIndex: 0, column: 1, row: 0, count: 1 },
      { cellSize: 256, classIndex: 0, column: 1, row: 1, count: 1 },
      { cellSize: 256, classIndex: 0, column: 273, row: 19, count: 1 },
      { cellSize: 256, classIndex: 1, column: 1, row: 1, count: 1 },
      { cellSize: 1024, classIndex: 0, column: 0, row: 0, count: 3 },
      { cellSize: 1024, classIndex: 0, column: 68, row: 4, count: 1 },
      { cellSize: 1024, classIndex: 1, column: 0, row: 0, count: 1 },
      { cellSize: 2048, classIndex: 0, column: 0, row: 0, count: 3 },
      { cellSize: 2048, classIndex: 0, column: 34, row: 2, count: 1 },
      { cellSize: 2048, classIndex: 1, column: 0, row: 0, count: 1 },
    ]);
  });
});
