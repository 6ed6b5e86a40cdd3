import { DEFAULT_COLOR_SETTINGS, type ColorSettings } from '@pathology/contract';
import { describe, expect, it } from 'vitest';
import {
  channelTable,
  colourMatrix,
  cssFilterValue,
  hueRotationMatrix,
  isNeutral,
  saturationMatrix,
  svgFilterMarkup,
  svgFilterPrimitives,
  transformPixels,
  transferChannel,
} from './colour-filter.ts';

const colour = (changes: Partial<ColorSettings>): ColorSettings => ({ ...DEFAULT_COLOR_SETTINGS, ...changes });

/** Runs the pipeline over one opaque pixel. */
function pixel(rgb: [number, number, number], changes: Partial<ColorSettings>, alpha = 255): number[] {
  const data = new Uint8ClampedArray([...rgb, alpha]);
  transformPixels(data, colour(changes));
  return [...data];
}

const IDENTITY = [1, 0, 0, 0, 1, 0, 0, 0, 1];

describe('colour filter maths', () => {
  it('treats the defaults as neutral: no CSS filter, no SVG primitive, pixels untouched', () => {
    expect(isNeutral(DEFAULT_COLOR_SETTINGS)).toBe(true);
    expect(cssFilterValue(DEFAULT_COLOR_SETTINGS, 'f')).toBe('none');
    expect(svgFilterPrimitives(DEFAULT_COLOR_SETTINGS)).toEqual([]);
    expect(pixel([12, 130, 250], {})).toEqual([12, 130, 250, 255]);
  });

  it('references the SVG filter by id once anything changes', () => {
    expect(cssFilterValue(colour({ gamma: 1.5 }), 'viewer-colour-1')).toBe('url(#viewer-colour-1)');
  });

  it('uses the Filter Effects matrices: saturate(1) and hueRotate(0) are the identity', () => {
    saturationMatrix(1).forEach((value, i) => expect(value).toBeCloseTo(IDENTITY[i]!, 10));
    hueRotationMatrix(0).forEach((value, i) => expect(value).toBeCloseTo(IDENTITY[i]!, 10));
    hueRotationMatrix(360).forEach((value, i) => expect(value).toBeCloseTo(IDENTITY[i]!, 10));
    expect(colourMatrix(DEFAULT_COLOR_SETTINGS)).toBeNull();
  });

  it('keeps greys grey under any saturation and tint (rows sum to 1)', () => {
    const matrix = colourMatrix(colour({ saturation: 60, tint: -45 }))!;
    for (let row = 0; row < 3; row++)
      expect(matrix[row * 3]! + matrix[row * 3 + 1]! + matrix[row * 3 + 2]!).toBeCloseTo(1);
    expect(pixel([128, 128, 128], { saturation: 60, tint: -45 })).toEqual([128, 128, 128, 255]);
  });

  it('turns saturation −100 into luminance grey', () => {
    expect(pixel([255, 0, 0], { saturation: -100 })).toEqual([54, 54, 54, 255]);
  });

  it('rotates the hue by tint × 1.8°, as CSS hue-rotate(180deg) does at tint 100', () => {
    expect(pixel([255, 0, 0], { tint: 100 })).toEqual([0, 109, 109, 255]);
  });

  it('scales by brightness and stretches around mid-grey by contrast, clamping', () => {
    expect(pixel([100, 0, 200], { brightness: 100 })).toEqual([200, 0, 255, 255]);
    expect(pixel([100, 0, 200], { brightness: -100 })).toEqual([0, 0, 0, 255]);
    expect(pixel([10, 128, 250], { contrast: -100 })).toEqual([128, 128, 128, 255]);
    expect(transferChannel(0.75, colour({ contrast: 100 }))).toBeCloseTo(1);
    expect(transferChannel(0.25, colour({ contrast: 100 }))).toBeCloseTo(0);
  });

  it('applies gamma as v^(1/gamma): above 1 lightens', () => {
    expect(transferChannel(0.25, colour({ gamma: 2 }))).toBeCloseTo(0.5);
    expect(transferChannel(0.25, colour({ gamma: 0.5 }))).toBeCloseTo(0.0625);
    expect(channelTable(colour({ gamma: 2 }))[64]).toBe(128);
  });

  it('inverts last and keeps alpha', () => {
    expect(pixel([0, 100, 255], { invert: 1 }, 77)).toEqual([255, 155, 0, 77]);
    // Invert after brightness: black stays black before the inversion makes it white.
    expect(pixel([200, 200, 200], { brightness: -100, invert: 1 })).toEqual([255, 255, 255, 255]);
  });

  it('writes the same steps as SVG primitives, in sRGB', () => {
    const settings = colour({ saturation: 20, brightness: 10, contrast: -20, gamma: 2, invert: 1 });
    const primitives = svgFilterPrimitives(settings);
    expect(primitives).toHaveLength(4);
    expect(primitives[0]).toMatch(/^<feColorMatrix type="matrix" values="(\S+ ){19}\S+"\/>$/);
    expect(primitives[1]).toContain('<feFuncR type="linear" slope="0.88" intercept="0.1"/>');
    expect(primitives[2]).toContain('<feFuncG type="gamma" amplitude="1" exponent="0.5" offset="0"/>');
    expect(primitives[3]).toContain('<feFuncB type="table" tableValues="1 0"/>');
    const markup = svgFilterMarkup(settings, 'x');
    expect(markup).toMatch(/^<filter id="x" [^>]*color-interpolation-filters="sRGB">/);
    expect(markup.endsWith('</filter>')).toBe(true);
  });
});
