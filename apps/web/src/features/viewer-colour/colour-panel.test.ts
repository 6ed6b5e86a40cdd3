import { DEFAULT_COLOR_SETTINGS } from '@pathology/contract';
import { describe, expect, it } from 'vitest';
import { chosenPreset, formatSetting } from './colour-panel.ts';
import type { ColourPreset } from './colour.queries.ts';

const preset = (id: string, contrast: number): ColourPreset => ({
  id,
  organizationId: 'g',
  name: id,
  isDefault: false,
  settings: { ...DEFAULT_COLOR_SETTINGS, contrast },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

describe('colour panel rules', () => {
  it('formats slider values', () => {
    expect(formatSetting('brightness', 20)).toBe('+20');
    expect(formatSetting('contrast', -5)).toBe('-5');
    expect(formatSetting('saturation', 0)).toBe('0');
    expect(formatSetting('gamma', 1.4)).toBe('1.40');
    expect(formatSetting('tint', -50)).toBe('-50 (-90°)');
  });

  it('shows the picked preset while the colour matches it, else the first match, else none', () => {
    const presets = [preset('a', 30), preset('b', 30), preset('c', 0)];
    const thirty = { ...DEFAULT_COLOR_SETTINGS, contrast: 30 };
    expect(chosenPreset(presets, thirty, 'b')?.id).toBe('b');
    expect(chosenPreset(presets, thirty, null)?.id).toBe('a');
    expect(chosenPreset(presets, thirty, 'c')?.id).toBe('a');
    expect(chosenPreset(presets, { ...thirty, gamma: 2 }, 'a')).toBeNull();
  });
});
