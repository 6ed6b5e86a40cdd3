import { describe, expect, it } from 'vitest';
import { cellSizeFor, densityPixels, maxTileLevel, tileRegion, VIEWPORT_CELL_PIXELS } from './detection-grid.ts';

describe('detection grid', () => {
  it('picks the finest stored cell that is at least 4 screen pixels wide', () => {
    expect(cellSizeFor(1 / 16)).toBe(256);
    expect(cellSizeFor(1 / 64)).toBe(256);
    expect(cellSizeFor(1 / 128)).toBe(1024);
    expect(cellSizeFor(1 / 256)).toBe(1024);
    expect(cellSizeFor(1 / 512)).toBe(2048);
    expect(cellSizeFor(1 / 4096)).toBe(2048);
  });

  it('answers viewports in cells at least 16 screen pixels wide: a whole slide in a few hundred cells', () => {
    expect(cellSizeFor(1 / 8, VIEWPORT_CELL_PIXELS)).toBe(256);
    expect(cellSizeFor(1 / 16, VIEWPORT_CELL_PIXELS)).toBe(256);
    expect(cellSizeFor(1 / 32, VIEWPORT_CELL_PIXELS)).toBe(1024);
    expect(cellSizeFor(1 / 64, VIEWPORT_CELL_PIXELS)).toBe(1024);
    expect(cellSizeFor(1 / 128, VIEWPORT_CELL_PIXELS)).toBe(2048);
    expect(cellSizeFor(1 / 4096, VIEWPORT_CELL_PIXELS)).toBe(2048);
  });

  it('numbers tile levels as OpenSeadragon does and cuts edge tiles short', () => {
    const size = { width: 40_000, height: 30_000 };
    expect(maxTileLevel(size)).toBe(16);
    expect(tileRegion(size, 16, 0, 0)).toEqual({
      region: { x: 0, y: 0, width: 512, height: 512 },
      scale: 1,
      pixelWidth: 512,
      pixelHeight: 512,
    });
    expect(tileRegion(size, 16, 78, 58)).toMatchObject({
      region: { x: 39_936, width: 64, height: 304 },
      pixelWidth: 64,
    });
    expect(tileRegion(size, 9, 0, 0)).toMatchObject({ scale: 1 / 128, pixelWidth: 313, pixelHeight: 235 });
    expect(tileRegion(size, 16, 79, 0)).toBeUndefined();
    expect(tileRegion(size, 17, 0, 0)).toBeUndefined();
  });

  it('mixes the visible classes of a cell by their counts, leaves hidden and empty cells clear', () => {
    const colors = new Map([
      [0, '#ff0000'],
      [1, '#0000ff'],
    ]);
    const cells = [
      { column: 10, row: 20, classIndex: 0, count: 3 },
      { column: 10, row: 20, classIndex: 1, count: 1 },
      { column: 11, row: 20, classIndex: 2, count: 50 },
      { column: 11, row: 21, classIndex: 1, count: 8 },
      // Outside the grid: left out.
      { column: 12, row: 20, classIndex: 0, count: 5 },
    ];
    const pixels = densityPixels(cells, { column: 10, row: 20, columns: 2, rows: 2 }, colors, 1, 8);
    expect([...pixels.subarray(0, 4)]).toEqual([191, 0, 64, Math.round(255 * (0.25 + 0.75 * 0.5))]);
    expect([...pixels.subarray(4, 8)]).toEqual([0, 0, 0, 0]);
    expect([...pixels.subarray(8, 12)]).toEqual([0, 0, 0, 0]);
    expect([...pixels.subarray(12, 16)]).toEqual([0, 0, 255, 255]);
  });
});
