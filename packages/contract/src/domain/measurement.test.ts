import { describe, expect, it } from 'vitest';
import { formatArea, formatLength, measureDrawing, measurementText, micronsPerPixelXY } from './measurement.ts';

const quarterMicron = { x: 0.25, y: 0.25 };

describe('measureDrawing', () => {
  it('measures a 3-4-5 line in pixels without a resolution and in µm with one', () => {
    const line = {
      type: 'LineString' as const,
      coordinates: [
        [0, 0],
        [300, 400],
      ] as [number, number][],
    };
    expect(measureDrawing(line, undefined)).toEqual({ unit: 'px', length: 500 });
    expect(measureDrawing(line, quarterMicron)).toEqual({ unit: 'µm', length: 125 });
  });

  it('gives a rectangle its area and perimeter, and subtracts holes', () => {
    const outline: [number, number][] = [
      [0, 0],
      [400, 0],
      [400, 200],
      [0, 200],
      [0, 0],
    ];
    const hole: [number, number][] = [
      [10, 10],
      [20, 10],
      [20, 20],
      [10, 20],
      [10, 10],
    ];
    expect(measureDrawing({ type: 'Polygon', coordinates: [outline] }, quarterMicron)).toEqual({
      unit: 'µm',
      area: 5000,
      perimeter: 300,
    });
    // Clockwise or counter-clockwise: the area is never negative.
    const reversed = [...outline].reverse();
    expect(measureDrawing({ type: 'Polygon', coordinates: [reversed, hole] }, undefined)).toMatchObject({
      area: 80_000 - 100,
      perimeter: 1200 + 40,
    });
  });

  it('measures an ellipse exactly for a circle and by Ramanujan otherwise', () => {
    const circle = measureDrawing({ type: 'Ellipse', center: [0, 0], radii: [100, 100] }, undefined);
    expect(circle.area).toBeCloseTo(Math.PI * 10_000, 6);
    expect(circle.perimeter).toBeCloseTo(2 * Math.PI * 100, 6);
    // a = 10, b = 5: perimeter 48.4422 (to 4 decimals).
    const ellipse = measureDrawing({ type: 'Ellipse', center: [0, 0], radii: [10, 5] }, undefined);
    expect(ellipse.perimeter).toBeCloseTo(48.4422, 3);
    expect(ellipse.area).toBeCloseTo(Math.PI * 50, 9);
  });

  it('uses each axis its own scale when the resolution differs', () => {
    const scale = { x: 0.5, y: 0.25 };
    const line = {
      type: 'LineString' as const,
      coordinates: [
        [0, 0],
        [0, 400],
      ] as [number, number][],
    };
    expect(measureDrawing(line, scale).length).toBe(100);
    const square: [number, number][] = [
      [0, 0],
      [100, 0],
      [100, 100],
      [0, 100],
      [0, 0],
    ];
    expect(measureDrawing({ type: 'Polygon', coordinates: [square] }, scale).area).toBe(1250);
  });

  it('has nothing to measure on a point', () => {
    expect(measureDrawing({ type: 'Point', coordinates: [5, 5] }, quarterMicron)).toEqual({ unit: 'µm' });
  });
});

describe('micronsPerPixelXY', () => {
  it('reads dpc and dpi, the placeholder 10 dpc, and refuses what is no microscope scan', () => {
    expect(micronsPerPixelXY({ x: 40_000, y: 20_000, unit: 'dpc' })).toEqual({ x: 0.25, y: 0.5 });
    expect(micronsPerPixelXY({ x: 101_600, y: 101_600, unit: 'dpi' })!.x).toBeCloseTo(0.25, 9);
    expect(micronsPerPixelXY({ x: 10, y: 10, unit: 'dpc' })!.x).toBeCloseTo(10_000 / 22_620, 9);
    expect(micronsPerPixelXY({ x: 72, y: 72, unit: 'dpi' })).toBeUndefined();
    expect(micronsPerPixelXY(null)).toBeUndefined();
  });
});

describe('measurement text', () => {
  it('switches to mm past 1,000 µm and to mm² past 1,000,000 µm², and keeps pixels as pixels', () => {
    expect(formatLength(850.34, 'µm')).toBe('850.3 µm');
    expect(formatLength(1250, 'µm')).toBe('1.25 mm');
    expect(formatArea(5300.4, 'µm')).toBe('5,300 µm²');
    expect(formatArea(2_500_000, 'µm')).toBe('2.5 mm²');
    expect(formatLength(1234.5, 'px')).toBe('1,235 px');
    expect(measurementText({ unit: 'µm', area: 5000, perimeter: 300 })).toBe('A 5,000 µm² · P 300 µm');
    expect(measurementText({ unit: 'px', length: 500 })).toBe('500 px');
  });
});
