import { describe, expect, it } from 'vitest';
import { effectiveMagnification, steppedImageZoom, zoomLevelOf, zoomReadout, zoomText } from './zoom-text.ts';

describe('effectiveMagnification', () => {
  it('uses the image magnification when there is one', () => {
    expect(effectiveMagnification({ magnification: 40, dimensions: { width: 100, height: 100 } })).toBe(40);
  });

  it('defaults to 20 only for images larger than 5000 px on a side', () => {
    expect(effectiveMagnification({ magnification: null, dimensions: { width: 5001, height: 10 } })).toBe(20);
    expect(effectiveMagnification({ magnification: null, dimensions: { width: 10, height: 8000 } })).toBe(20);
    expect(effectiveMagnification({ magnification: null, dimensions: { width: 5000, height: 5000 } })).toBeUndefined();
    expect(effectiveMagnification({ magnification: null, dimensions: null })).toBeUndefined();
    expect(effectiveMagnification({ magnification: 0, dimensions: { width: 10, height: 10 } })).toBeUndefined();
  });
});

describe('zoomLevelOf', () => {
  it('is 0 at one screen pixel per image pixel and moves by 1 per doubling', () => {
    expect(zoomLevelOf(1)).toBe(0);
    expect(zoomLevelOf(0.5)).toBe(-1);
    expect(zoomLevelOf(4)).toBe(2);
  });
});

describe('zoomText', () => {
  it('multiplies the magnification by 2^level', () => {
    expect(zoomText(0, 20)).toBe('×20');
    expect(zoomText(-1, 20)).toBe('×10');
    expect(zoomText(-3, 20)).toBe('×2.5');
    expect(zoomText(1, 40)).toBe('×80');
    expect(zoomText(zoomLevelOf(0.6728), 20)).toBe('×13.5');
    expect(zoomText(-6, 20)).toBe('×0.313');
  });

  it('shows a percentage without a magnification', () => {
    expect(zoomText(0, undefined)).toBe('100%');
    expect(zoomText(-1, undefined)).toBe('50%');
    expect(zoomText(-5, undefined)).toBe('3.13%');
    expect(zoomText(zoomLevelOf(2.345), undefined)).toBe('235%');
  });

  it('is empty for a zoom that is not a number', () => {
    expect(zoomText(Number.NaN, 20)).toBe('');
    expect(zoomText(zoomLevelOf(0), 20)).toBe('');
  });
});

describe('steppedImageZoom', () => {
  it('goes to the next power of two in the direction asked', () => {
    expect(steppedImageZoom(0.2655, 'in')).toBe(0.5);
    expect(steppedImageZoom(0.3, 'out')).toBe(0.25);
    expect(steppedImageZoom(0.2655, 'out')).toBe(0.125); // ×5.3 is as good as ×5 already
    expect(steppedImageZoom(0.5, 'in')).toBe(1);
    expect(steppedImageZoom(1, 'out')).toBe(0.5);
    expect(steppedImageZoom(3, 'in')).toBe(4);
  });

  it('does not stop just short of a step', () => {
    expect(steppedImageZoom(0.99999, 'in')).toBe(2);
    expect(steppedImageZoom(1.995, 'in')).toBe(4);
    expect(steppedImageZoom(1.00001, 'out')).toBe(0.5);
    expect(steppedImageZoom(0.52, 'out')).toBe(0.25);
    expect(steppedImageZoom(1.5, 'in')).toBe(2);
    expect(steppedImageZoom(1.5, 'out')).toBe(1);
  });
});

describe('zoomReadout', () => {
  // 20,000 dots per centimetre: 0.5 µm per image pixel.
  const scan = {
    magnification: 20,
    dimensions: { width: 100, height: 100 },
    resolution: { x: 20000, y: 20000, unit: 'dpc' as const },
  };

  it('gives the zoom text and the scale bar of one image zoom', () => {
    const { text, bar } = zoomReadout(scan, 0.5);
    expect(text).toBe('×10');
    // 200 screen pixels are 200 µm at 1 µm per screen pixel: the bar is 200 µm, 200 px long.
    expect(bar).toMatchObject({ label: '200 µm', lengthPx: 200 });
  });

  it('has no scale bar without a valid resolution, and nothing before the image opens', () => {
    expect(zoomReadout({ ...scan, resolution: null }, 1)).toEqual({ text: '×20', bar: undefined });
    expect(zoomReadout(scan, undefined)).toEqual({ text: '', bar: undefined });
  });
});
