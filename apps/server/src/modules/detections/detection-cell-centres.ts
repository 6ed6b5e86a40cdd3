import { boxCentre, type CellKey, cellKey, cellsOfClass, keyCell } from './detection-cell-counts.ts';
import { CENTRE_CELL_SIZE } from './detection-grid.ts';

/** One row of `detection_centres` but its set and layer: the centres of one class's objects in one cell. */
export interface CentreRow {
  classIndex: number;
  column: number;
  row: number;
  /** x, y, x, y, … */
  centres: number[];
}

/**
 * The centres of an import's objects' boxes, gathered per class and cell of `CENTRE_CELL_SIZE` as the objects go by.
 * A count inside a drawing tests these rather than the objects in the cells its outline crosses: a few bytes per
 * object in rows of their own, instead of the objects' wide rows scattered over the table.
 */
export class CellCentres {
  /** Per class: x, y pairs by cell key. */
  private readonly classes = new Map<number, Map<CellKey, number[]>>();

  add(classIndex: number, bbox: readonly [number, number, number, number]): void {
    const [x, y] = boxCentre(bbox);
    const cells = cellsOfClass(this.classes, classIndex);
    const key = cellKey(x, y, CENTRE_CELL_SIZE);
    const centres = cells.get(key);
    if (centres === undefined) cells.set(key, [x, y]);
    else centres.push(x, y);
  }

  *rows(): Generator<CentreRow> {
    for (const [classIndex, cells] of this.classes) {
      for (const [key, centres] of cells) yield { classIndex, ...keyCell(key), centres };
    }
  }
}

/**
 * Centres as the text of a PostgreSQL `point[]`. A JavaScript number's shortest text reads back as the same double,
 * so PostgreSQL tests exactly the centres `center(bbox)` gives.
 */
export function pointArrayText(centres: readonly number[]): string {
  const points: string[] = [];
  for (let at = 0; at < centres.length; at += 2) points.push(`"(${centres[at]},${centres[at + 1]})"`);
  return `{${points.join(',')}}`;
}
