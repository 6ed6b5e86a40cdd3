/** A stretch of grid cells on one row, `first` to `last` columns inclusive. */
export interface CellRun {
  row: number;
  first: number;
  last: number;
}

/** A drawing's grid cells: those it covers whole, and those its outline crosses (the only ones needing a test). */
export interface AreaCells {
  cellSize: number;
  inside: CellRun[];
  border: CellRun[];
}

type Ring = readonly (readonly [number, number])[];

/** Cells this close to an edge count as crossed by it, so rounding never leaves a crossed cell unmarked. */
const EPSILON = 1e-6;

/**
 * Nonzero winding, as PostgreSQL's `polygon @> point` decides: a point is inside when the outline winds around it.
 * Only asked of points no edge comes near (cell centres off the border), so points on the outline never arise.
 */
export function windsAround(ring: Ring, x: number, y: number): boolean {
  let winding = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    const side = (xi - xj) * (y - yj) - (x - xj) * (yi - yj);
    if (yj <= y && yi > y && side > 0) winding += 1;
    else if (yj > y && yi <= y && side < 0) winding -= 1;
  }
  return winding !== 0;
}

/** Marks, per row, the columns of every cell that an edge touches (closed cells, so touching a side counts). */
function markBorder(ring: Ring, cellSize: number, origin: { column: number; row: number }, grid: Uint8Array[]) {
  const columns = grid[0]!.length;
  const mark = (row: number, fromX: number, toX: number) => {
    const line = grid[row - origin.row];
    if (line === undefined) return;
    const first = Math.max(0, Math.floor((fromX - EPSILON) / cellSize) - origin.column);
    const last = Math.min(columns - 1, Math.floor((toX + EPSILON) / cellSize) - origin.column);
    for (let column = first; column <= last; column += 1) line[column] = 1;
  };
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [x1, y1] = ring[j]!;
    const [x2, y2] = ring[i]!;
    const [top, bottom] = [Math.min(y1, y2), Math.max(y1, y2)];
    for (let row = Math.floor((top - EPSILON) / cellSize); row <= Math.floor((bottom + EPSILON) / cellSize); row += 1) {
      if (y1 === y2) {
        mark(row, Math.min(x1, x2), Math.max(x1, x2));
        continue;
      }
      // The part of the edge inside this row's band, by its x at the band's clipped top and bottom.
      const atY = (y: number) => x1 + ((x2 - x1) * (y - y1)) / (y2 - y1);
      const [fromY, toY] = [Math.max(top, row * cellSize), Math.min(bottom, (row + 1) * cellSize)];
      const [xa, xb] = [atY(fromY), atY(toY)];
      mark(row, Math.min(xa, xb), Math.max(xa, xb));
    }
  }
}

function runsOf(row: number, origin: number, line: Uint8Array, wanted: number): CellRun[] {
  const runs: CellRun[] = [];
  for (let column = 0; column < line.length; column += 1) {
    if (line[column] !== wanted) continue;
    const last = runs.at(-1);
    if (last !== undefined && last.last === origin + column - 1) last.last += 1;
    else runs.push({ row, first: origin + column, last: origin + column });
  }
  return runs;
}

/**
 * Splits the grid of `cellSize` under a closed ring into cells wholly inside it and cells its outline crosses. A
 * cell no edge touches lies wholly on one side, told by its centre; so every detection whose centre lies in an inside
 * cell is inside the drawing, and only those in border cells need the exact test.
 */
export function areaCells(ring: Ring, cellSize: number): AreaCells {
  const xs = ring.map(([x]) => x);
  const ys = ring.map(([, y]) => y);
  const origin = { column: Math.floor(Math.min(...xs) / cellSize), row: Math.floor(Math.min(...ys) / cellSize) };
  const columns = Math.floor(Math.max(...xs) / cellSize) - origin.column + 1;
  const rows = Math.floor(Math.max(...ys) / cellSize) - origin.row + 1;
  // 0: outside, 1: crossed by the outline, 2: wholly inside.
  const grid = Array.from({ length: rows }, () => new Uint8Array(columns));
  markBorder(ring, cellSize, origin, grid);
  const inside: CellRun[] = [];
  const border: CellRun[] = [];
  grid.forEach((line, index) => {
    const row = origin.row + index;
    for (let column = 0; column < columns; column += 1) {
      const centre = [(origin.column + column + 0.5) * cellSize, (row + 0.5) * cellSize] as const;
      if (line[column] === 0 && windsAround(ring, centre[0], centre[1])) line[column] = 2;
    }
    inside.push(...runsOf(row, origin.column, line, 2));
    border.push(...runsOf(row, origin.column, line, 1));
  });
  return { cellSize, inside, border };
}
