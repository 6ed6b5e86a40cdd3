import { describe, expect, it } from 'vitest';
import { CellCentres, pointArrayText } from './detection-cell-centres.ts';

describe('centres of an import', () => {
  it('gathers the centres of the boxes per class and the 256-pixel cell that holds them', () => {
    const centres = new CellCentres();
    centres.add(0, [0, 0, 10, 10]);
    centres.add(0, [250, 250, 262, 262]);
    centres.add(1, [250, 250, 262, 262]);
    // Centre (256, 10.05): on the edge of the second column, which holds it.
    centres.add(0, [250, 0.1, 262, 20]);
    centres.add(0, [0.1, 0.2, 20, 1]);
    const rows = [...centres.rows()].sort(
      (a, b) => a.classIndex - b.classIndex || a.row - b.row || a.column - b.column,
    );
    expect(rows).toEqual([
      { classIndex: 0, column: 0, row: 0, centres: [5, 5, 10.05, 0.6] },
      { classIndex: 0, column: 1, row: 0, centres: [256, 10.05] },
      { classIndex: 0, column: 1, row: 1, centres: [256, 256] },
      { classIndex: 1, column: 1, row: 1, centres: [256, 256] },
    ]);
  });

  it('writes them as point[] text whose numbers read back as the same doubles', () => {
    expect(pointArrayText([5, 5, 0.1 + 0.2, 1e-7])).toBe('{"(5,5)","(0.30000000000000004,1e-7)"}');
  });
});
