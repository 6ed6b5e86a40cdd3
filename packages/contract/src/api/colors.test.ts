import { describe, expect, it } from 'vitest';
import { DEFAULT_COLOR_SETTINGS } from '../domain/settings.ts';
import {
  BitmapColorSettingsSchema,
  ColorSettingsInputSchema,
  DEFAULT_BITMAP_COLOR_SETTINGS,
  fromBitmapColor,
  toBitmapColor,
} from './colors.ts';

describe('colour settings', () => {
  const settings = { saturation: 10, brightness: -20, contrast: 30, gamma: 1.5, tint: -40, invert: 1 } as const;

  it('names every setting with the bitmap prefix on the wire, and back', () => {
    const wire = toBitmapColor(settings);
    expect(wire).toEqual({
      bitmapSaturation: 10,
      bitmapBrightness: -20,
      bitmapContrast: 30,
      bitmapGamma: 1.5,
      bitmapTint: -40,
      bitmapInvert: 1,
    });
    expect(fromBitmapColor({ ...wire, caseId: 'ignored' } as typeof wire)).toEqual(settings);
    expect(fromBitmapColor(DEFAULT_BITMAP_COLOR_SETTINGS)).toEqual(DEFAULT_COLOR_SETTINGS);
  });

  it('checks the ranges', () => {
    expect(ColorSettingsInputSchema.safeParse(settings).success).toBe(true);
    expect(ColorSettingsInputSchema.safeParse({ ...settings, saturation: -101 }).success).toBe(false);
    expect(ColorSettingsInputSchema.safeParse({ ...settings, contrast: 1.5 }).success).toBe(false);
    expect(ColorSettingsInputSchema.safeParse({ ...settings, gamma: 3.01 }).success).toBe(false);
    expect(BitmapColorSettingsSchema.safeParse({ ...toBitmapColor(settings), bitmapInvert: 0.5 }).success).toBe(false);
  });
});
