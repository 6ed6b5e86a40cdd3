import { overlayGridSize, type PredictionLabelGroup, type PredictionResult } from '@pathology/contract';
import { describe, expect, it } from 'vitest';
import { overlayCells, overlayGrid } from './overlay-cells.ts';

const groups: PredictionLabelGroup[] = [
  {
    name: 'tumour',
    labelNames: ['Carcinoma'],
    modelName: 'm',
    type: 'abnormal',
    displayName: 'Carcinoma',
    color: '#ff0000',
    positive: true,
  },
  {
    name: 'normal',
    labelNames: ['Normal'],
    modelName: 'm',
    type: 'normal',
    displayName: 'Normal',
    color: '#00ff00',
    positive: false,
  },
];
const result: PredictionResult = {
  cellSize: 256,
  version: '1',
  numberOfConsideredCells: 4,
  labels: { '1': 'Carcinoma', '2': 'Normal' },
  cells: {
    '0:0': { '1': 90, '2': 10 },
    '1:0': { '1': 40, '2': 60 },
    '2:3': { '1': 55, '2': 45 },
    '3:3': { '1': 50, '2': 95 },
  },
};

describe('overlay cells', () => {
  it('keeps positive cells at or above the threshold, strongest first, in their group colour', () => {
    expect(overlayCells(result, groups, 50)).toEqual([
      { x: 0, y: 0, probability: 90, labelId: '1', color: '#ff0000' },
      { x: 2, y: 3, probability: 55, labelId: '1', color: '#ff0000' },
      { x: 3, y: 3, probability: 50, labelId: '1', color: '#ff0000' },
    ]);
    expect(overlayCells(result, groups, 60).map((cell) => `${cell.x}:${cell.y}`)).toEqual(['0:0']);
    expect(overlayCells(result, groups, 95)).toEqual([]);
  });

  it('sizes the grid as the next power of two of image size over cell size, at least 4', () => {
    expect(overlayGridSize(2967, 256)).toBe(16);
    expect(overlayGridSize(1024, 256)).toBe(4);
    expect(overlayGridSize(300, 256)).toBe(4);
    expect(overlayGridSize(100_000, 256)).toBe(512);
    const grid = overlayGrid(result, { width: 2220, height: 2967 });
    expect(grid.size).toBe(16);
    expect(grid.cellRect({ x: 2, y: 3 })).toEqual({ x: 512, y: 768, width: 256, height: 256 });
  });
});
