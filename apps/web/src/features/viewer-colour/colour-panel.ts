import type { COLOR_SETTING_RANGES, ColorSettings } from '@pathology/contract';
import { sameColour, tintDegrees } from './colour-filter.ts';
import type { ColourPreset } from './colour.queries.ts';

export type SliderKey = keyof typeof COLOR_SETTING_RANGES;

/** The sliders of the panel, in order (invert is a switch). */
export const SLIDERS: readonly SliderKey[] = ['saturation', 'tint', 'brightness', 'contrast', 'gamma'];

const signed = (value: number) => (value > 0 ? `+${value}` : String(value));

/** The number shown next to a slider: signed steps, tint with its hue angle, gamma with two decimals. */
export function formatSetting(key: SliderKey, value: number): string {
  if (key === 'gamma') return value.toFixed(2);
  if (key === 'tint') return `${signed(value)} (${signed(Math.round(tintDegrees(value)))}°)`;
  return signed(value);
}

/**
 * The preset shown as chosen: the one last picked while the colour still matches it, else the
 * first whose settings equal the current ones; none (custom) when the colour matches no preset.
 */
export function chosenPreset(
  presets: readonly ColourPreset[],
  settings: ColorSettings,
  picked: string | null,
): ColourPreset | null {
  const matching = presets.filter((preset) => sameColour(preset.settings, settings));
  return matching.find((preset) => preset.id === picked) ?? matching[0] ?? null;
}
