import { describe, expect, it } from 'vitest';
import { micronsPerImagePixel, validDotsPerCentimetre } from '@pathology/contract';
import { scaleBar } from './scale-bar.ts';

describe('validDotsPerCentimetre', () => {
  it('converts dpi to dpc and keeps dpc as is', () => {
    expect(validDotsPerCentimetre({ x: 20040, y: 20040, unit: 'dpc' })).toBe(20040);
    expect(validDotsPerCentimetre({ x: 50800, y: 50800, unit: 'dpi' })).toBeCloseTo(20000);
  });

  it('reads exactly 10 dpc as 22620', () => {
    expect(validDotsPerCentimetre({ x: 10, y: 10, unit: 'dpc' })).toBe(22620);
    expect(validDotsPerCentimetre({ x: 25.4, y: 25.4, unit: 'dpi' })).toBe(22620);
  });

  it('refuses 5000 dpc and less, and a missing resolution', () => {
    expect(validDotsPerCentimetre({ x: 5000, y: 5000, unit: 'dpc' })).toBeUndefined();
    expect(validDotsPerCentimetre({ x: 72, y: 72, unit: 'dpi' })).toBeUndefined();
    expect(validDotsPerCentimetre({ x: 11, y: 11, unit: 'dpc' })).toBeUndefined();
    expect(validDotsPerCentimetre(null)).toBeUndefined();
  });
});

describe('micronsPerImagePixel', () => {
  it('is 10000 / dpc', () => {
    expect(micronsPerImagePixel({ x: 20000, y: 20000, unit: 'dpc' })).toBe(0.5);
    expect(micronsPerImagePixel({ x: 10, y: 10, unit: 'dpc' })).toBeCloseTo(0.4421);
    expect(micronsPerImagePixel({ x: 300, y: 300, unit: 'dpi' })).toBeUndefined();
  });
});

describe('scaleBar', () => {
  it('picks the longest 1-2-5 length that fits in 200 px', () => {
    // 0.5 µm per image pixel at 1:1 → 100 µm per 200 px: a 100 µm bar of 200 px.
    expect(scaleBar(0.5, 1)).toEqual({ lengthPx: 200, microns: 100, label: '100 µm' });
    // Zoomed out 4×: 2 µm per screen pixel → 400 µm fits; 500 µm would be 250 px.
    expect(scaleBar(0.5, 0.25)).toEqual({ lengthPx: 100, microns: 200, label: '200 µm' });
    expect(scaleBar(0.5, 0.1)).toEqual({ lengthPx: 200, microns: 1000, label: '1 mm' });
    expect(scaleBar(0.5, 0.125)).toEqual({ lengthPx: 125, microns: 500, label: '500 µm' });
  });

  it('switches to millimetres from 1000 µm and goes below 1 µm when zoomed far in', () => {
    expect(scaleBar(0.5, 0.02)?.label).toBe('5 mm');
    expect(scaleBar(0.5, 0.05)).toEqual({ lengthPx: 200, microns: 2000, label: '2 mm' });
    expect(scaleBar(0.5, 200)).toEqual({ lengthPx: 200, microns: 0.5, label: '0.5 µm' });
  });

  it('stays between 80 and 200 px at any zoom', () => {
    for (let zoom = 0.001; zoom < 100; zoom *= 1.13) {
      const bar = scaleBar(0.2527, zoom);
      expect(bar?.lengthPx).toBeGreaterThan(80 - 1e-6);
      expect(bar?.lengthPx).toBeLessThanOrEqual(200 + 1e-6);
      expect(String(bar?.microns)).toMatch(/^(0\.0*)?[125]0*$/);
    }
  });

  it('has no bar for a zoom that is not a number', () => {
    expect(scaleBar(0.5, 0)).toBeUndefined();
    expect(scaleBar(0.5, Number.NaN)).toBeUndefined();
  });
});
