import { z } from 'zod';

/** Per-user screen settings, saved by type with a JSON value. */
export const SCREEN_SETTING_TYPES = ['case_list', 'case_detail', 'drawing_visibility'] as const;
export const ScreenSettingTypeSchema = z.enum(SCREEN_SETTING_TYPES);
export type ScreenSettingType = z.infer<typeof ScreenSettingTypeSchema>;

/** Viewer colour adjustment; `invert` is 0 or 1. */
export const ColorSettingsSchema = z.object({
  saturation: z.number(),
  brightness: z.number(),
  contrast: z.number(),
  gamma: z.number(),
  tint: z.number(),
  invert: z.union([z.literal(0), z.literal(1)]),
});
export type ColorSettings = z.infer<typeof ColorSettingsSchema>;

/** Neutral adjustment: the image as scanned. */
export const DEFAULT_COLOR_SETTINGS: ColorSettings = {
  saturation: 0,
  brightness: 0,
  contrast: 0,
  gamma: 1,
  tint: 0,
  invert: 0,
};
