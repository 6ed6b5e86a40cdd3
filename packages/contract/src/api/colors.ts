import { z } from 'zod';
import { DEFAULT_COLOR_SETTINGS, type ColorSettings } from '../domain/settings.ts';

/**
 * Viewer colour adjustments (part 2 §3). Ranges and meaning, all applied to the displayed tiles
 * only (tiles are never re-requested), in this order:
 *
 * - saturation −100..100 (integer, default 0): factor 1 + s/100; −100 is greyscale, 100 doubles it.
 * - tint −100..100 (integer, default 0): a hue shift of tint × 1.8°, so ±100 is ±180° (CSS hue-rotate).
 * - brightness −100..100 (integer, default 0): factor 1 + b/100; −100 is black, 100 doubles it.
 * - contrast −100..100 (integer, default 0): factor 1 + c/100 around mid-grey; −100 is flat grey.
 * - gamma 0.1..3 (default 1): output = input^(1/gamma); above 1 lightens mid-tones, below 1 darkens.
 * - invert 0 or 1 (default 0): 1 shows the negative.
 */
export const COLOR_SETTING_RANGES = {
  saturation: { min: -100, max: 100, step: 1 },
  tint: { min: -100, max: 100, step: 1 },
  brightness: { min: -100, max: 100, step: 1 },
  contrast: { min: -100, max: 100, step: 1 },
  gamma: { min: 0.1, max: 3, step: 0.05 },
} as const satisfies Record<Exclude<keyof ColorSettings, 'invert'>, { min: number; max: number; step: number }>;

/** The order of the settings everywhere they are listed (panel sliders, filter pipeline). */
export const COLOR_SETTING_KEYS = ['saturation', 'tint', 'brightness', 'contrast', 'gamma', 'invert'] as const;
export type ColorSettingKey = (typeof COLOR_SETTING_KEYS)[number];

/** Messages of the colour settings and presets; the field they concern is the path. */
export const COLOR_MESSAGES = {
  wholeNumber: 'Must be a whole number',
  atLeast: 'Must be at least ${min}',
  atMost: 'Must be at most ${max}',
  presetNameRequired: 'Name is required',
  presetNameTooLong: 'Name must be at most ${max} characters',
  caseIdInvalid: 'caseId must be a case id',
} as const;

const atLeast = (min: number) => COLOR_MESSAGES.atLeast.replace('${min}', String(min));
const atMost = (max: number) => COLOR_MESSAGES.atMost.replace('${max}', String(max));

const percent = () => z.number().int(COLOR_MESSAGES.wholeNumber).min(-100, atLeast(-100)).max(100, atMost(100));

const FIELDS = {
  saturation: percent().describe('−100 (greyscale) .. 100 (double), default 0'),
  brightness: percent().describe('−100 (black) .. 100 (double), default 0'),
  contrast: percent().describe('−100 (flat grey) .. 100 (double), default 0'),
  gamma: z
    .number()
    .min(COLOR_SETTING_RANGES.gamma.min, atLeast(COLOR_SETTING_RANGES.gamma.min))
    .max(COLOR_SETTING_RANGES.gamma.max, atMost(COLOR_SETTING_RANGES.gamma.max))
    .describe('0.1 .. 3, default 1; output = input^(1/gamma)'),
  tint: percent().describe('Hue shift of tint × 1.8° (−180° .. 180°), default 0'),
  invert: z.union([z.literal(0), z.literal(1)]).describe('1 shows the negative, default 0'),
};

/** Colour settings with their ranges checked; the plain names the web and the database use. */
export const ColorSettingsInputSchema = z.object(FIELDS) satisfies z.ZodType<ColorSettings>;

/**
 * The one map between the plain names and the names on the wire: the API names every colour
 * setting with a `bitmap` prefix (part 2 §3).
 */
export const BITMAP_COLOR_KEYS = {
  saturation: 'bitmapSaturation',
  brightness: 'bitmapBrightness',
  contrast: 'bitmapContrast',
  gamma: 'bitmapGamma',
  tint: 'bitmapTint',
  invert: 'bitmapInvert',
} as const satisfies { [K in keyof ColorSettings]: `bitmap${Capitalize<K>}` };

/** Colour settings as the API sends and receives them. */
export const BitmapColorSettingsSchema = z.object({
  bitmapSaturation: FIELDS.saturation,
  bitmapBrightness: FIELDS.brightness,
  bitmapContrast: FIELDS.contrast,
  bitmapGamma: FIELDS.gamma,
  bitmapTint: FIELDS.tint,
  bitmapInvert: FIELDS.invert,
});
export type BitmapColorSettings = z.infer<typeof BitmapColorSettingsSchema>;

const PLAIN_KEYS = Object.keys(BITMAP_COLOR_KEYS) as (keyof ColorSettings)[];

/** Plain names → wire names. */
export function toBitmapColor(settings: ColorSettings): BitmapColorSettings {
  return Object.fromEntries(PLAIN_KEYS.map((key) => [BITMAP_COLOR_KEYS[key], settings[key]])) as BitmapColorSettings;
}

/** Wire names → plain names; anything else in `bitmap` (caseId, source…) is left behind. */
export function fromBitmapColor(bitmap: BitmapColorSettings): ColorSettings {
  return Object.fromEntries(PLAIN_KEYS.map((key) => [key, bitmap[BITMAP_COLOR_KEYS[key]]])) as ColorSettings;
}

/** The neutral adjustment in wire names. */
export const DEFAULT_BITMAP_COLOR_SETTINGS: BitmapColorSettings = toBitmapColor(DEFAULT_COLOR_SETTINGS);

/** Where the colour of GET accounts/me/color came from. */
export const MY_COLOR_SOURCES = ['user', 'preset', 'default'] as const;
export const MyColorSourceSchema = z.enum(MY_COLOR_SOURCES);
export type MyColorSource = z.infer<typeof MyColorSourceSchema>;

/** GET accounts/me/color?caseId= : the query. */
export const MyColorQuerySchema = z.object({ caseId: z.uuid('caseId must be a case id') });
export type MyColorQuery = z.infer<typeof MyColorQuerySchema>;

/**
 * GET accounts/me/color?caseId=: the caller's colour for the case ('user'), else the default
 * preset of the case's owner group ('preset', with its id), else the neutral settings ('default').
 */
export const MyColorSchema = BitmapColorSettingsSchema.extend({
  caseId: z.uuid(),
  source: MyColorSourceSchema,
  /** The preset the colour came from when `source` is 'preset'. */
  presetId: z.uuid().nullable(),
});
export type MyColor = z.infer<typeof MyColorSchema>;

/** POST accounts/me/color: saves the caller's colour for a case they can see. */
export const SaveMyColorRequestSchema = BitmapColorSettingsSchema.extend({
  caseId: z.uuid(COLOR_MESSAGES.caseIdInvalid),
});
export type SaveMyColorRequest = z.infer<typeof SaveMyColorRequestSchema>;

export const MAX_COLOR_PRESET_NAME_LENGTH = 100;

const PresetNameSchema = z
  .string(COLOR_MESSAGES.presetNameRequired)
  .trim()
  .min(1, COLOR_MESSAGES.presetNameRequired)
  .max(
    MAX_COLOR_PRESET_NAME_LENGTH,
    COLOR_MESSAGES.presetNameTooLong.replace('${max}', String(MAX_COLOR_PRESET_NAME_LENGTH)),
  );

/** A named colour adjustment of a group; at most one per group is its default. */
export const ColorPresetSchema = z.object({
  id: z.uuid(),
  organizationId: z.uuid(),
  name: z.string(),
  /** The group's default: the colour of its cases for users who have not saved their own. */
  isDefault: z.boolean(),
  settings: BitmapColorSettingsSchema,
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type ColorPreset = z.infer<typeof ColorPresetSchema>;

/** GET organizations/{id}/colors: the default first, then by name. */
export const ColorPresetListSchema = z.object({ data: z.array(ColorPresetSchema) });
export type ColorPresetList = z.infer<typeof ColorPresetListSchema>;

/** POST organizations/{id}/colors (group administrators). */
export const CreateColorPresetRequestSchema = z.object({
  name: PresetNameSchema,
  settings: BitmapColorSettingsSchema,
});
export type CreateColorPresetRequest = z.infer<typeof CreateColorPresetRequestSchema>;

/** PATCH organizations/{id}/colors/{colorId} (merge-patch): name and any of the settings. */
export const UpdateColorPresetRequestSchema = z.object({
  name: PresetNameSchema.optional(),
  settings: BitmapColorSettingsSchema.partial().optional(),
});
export type UpdateColorPresetRequest = z.infer<typeof UpdateColorPresetRequestSchema>;
