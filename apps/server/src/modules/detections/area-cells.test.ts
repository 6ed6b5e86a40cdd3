import { describe, expect, it } from 'vitest';
import { areaCells, windsAround, type CellRun } from './area-cells.ts';

type Ring = [number, number][];

const closed = (points: Ring): Ring => [...points, points[0]!];

const ellipse = (cx: number, cy: number, rx: number, ry: number, vertices = 64): Ring =>
  closed(
    Array.from({ length: vertices }, (_, k) => {
      const angle = (2 * Math.PI * k) / vertices;
      return [cx + rx * Math.cos(angle), cy + ry * Math.sin(angle)] as [number, number];
    }),
  );

/** A seeded generator, so a failure is repeatable. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const inRuns = (runs: readonly CellRun[], column: number, row: number) =>
  runs.some((run) => run.row === row && column >= run.first && column <= run.last);

/** Counts as the repository does: whole inside cells by their sums, border cells by the exact test. */
function countByCells(ring: Ring, points: readonly [number, number][], cellSize: number) {
  const cells = areaCells(ring, cellSize);
  let count = 0;
  for (const [x, y] of points) {
    const [column, row] = [Math.floor(x / cellSize), Math.floor(y / cellSize)];
    if (inRuns(cells.inside, column, row)) count += 1;
    else if (inRuns(cells.border, column, row) && windsAround(ring, x, y)) count += 1;
  }
  return { count, cells };
}

describe('area cells', () => {
  const next = random(7);
  const points = Array.from({ length: 20_000 }, () => [next() * 10_000, next() * 8_000] as [number, number]);
  // Points on cell corners and sides too, where rounding would show first.
  for (let x = 0; x <= 10_000; x += 128) for (let y = 0; y <= 8_000; y += 128) points.push([x, y]);

  const shapes: Record<string, Ring> = {
    'a rectangle on cell lines': closed([
      [1024, 512],
      [6144, 512],
      [6144, 4096],
      [1024, 4096],
    ]),
    'a rectangle across cells': closed([
      [1000.5, 700.25],
      [7321.7, 700.25],
      [7321.7, 5999.9],
      [1000.5, 5999.9],
    ]),
    'a concave polygon': closed([
      [500, 500],
      [9000, 800],
      [4000, 3000],
      [8500, 7500],
      [700, 7000],
      [2500, 3500],
    ]),
    'an ellipse': ellipse(5000, 4000, 4100, 2900),
  };

  for (const [name, ring] of Object.entries(shapes)) {
    it(`counts exactly what the exact test counts inside ${name}, testing only border cells`, () => {
      const exact = points.filter(([x, y]) => windsAround(ring, x, y)).length;
      const { count, cells } = countByCells(ring, points, 256);
      expect(count).toBe(exact);
      expect(exact).toBeGreaterThan(1000);
      const size = (runs: CellRun[]) => runs.reduce((sum, run) => sum + run.last - run.first + 1, 0);
      // Whole cells are summed, the exact test is left to the band along the outline.
      expect(size(cells.inside)).toBeGreaterThan(100);
    });
  }

  it('takes whole cells inside a rectangle on cell lines and marks the cells its sides lie on', () => {
    const cells = areaCells(shapes['a rectangle on cell lines']!, 512);
    // Columns 2–12 and rows 1–8 are under the rectangle. Its sides lie on cell lines: the cells on both sides of
    // them are marked, as rounding could put a centre on either.
    expect(cells.inside).toEqual(Array.from({ length: 5 }, (_, k) => ({ row: 2 + k, first: 3, last: 10 })));
    expect(cells.border[0]).toEqual({ row: 1, first: 2, last: 12 });
    expect(cells.border[1]).toEqual({ row: 2, first: 2, last: 2 });
    expect(cells.border.at(-1)).toEqual({ row: 8, first: 2, last: 12 });
  });

  it('has no inside cell in a drawing smaller than a cell', () => {
    const cells = areaCells(ellipse(300, 300, 40, 30), 256);
    expect(cells.inside).toEqual([]);
    expect(cells.border).toEqual([{ row: 1, first: 1, last: 1 }]);
  });
});
