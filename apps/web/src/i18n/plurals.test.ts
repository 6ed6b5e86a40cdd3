import { createInstance } from 'i18next';
import { describe, expect, it } from 'vitest';
import { resources } from './index.ts';

/** Flattens a nested catalogue into [dotted key, text] pairs. */
function leaves(node: unknown, prefix = ''): [string, string][] {
  if (typeof node !== 'object' || node === null) return [[prefix, String(node)]];
  return Object.entries(node).flatMap(([key, child]) => leaves(child, prefix ? `${prefix}.${key}` : key));
}

/** English counts with no noun to agree with the number ("3 ready", "Save (3)"): one form is right for every count. */
const NUMBER_ONLY = new Set([
  'caseList.imageStatus.readyCount',
  'predictions.start.skipped',
  'predictions.overlay.hotspotOf',
  'drawings.saveCount',
  'caseImages.toolbar.selected',
  'organizations.total',
]);

const english = createInstance();
void english.init({ resources, lng: 'en', initAsync: false, interpolation: { escapeValue: false } });

describe('counted texts', () => {
  const counted = leaves(resources.en.translation).filter(([, text]) => text.includes('{{count}}'));

  it('have English _one and _other forms (i18next plural rules), unless the number stands alone', () => {
    const single = counted
      .map(([key]) => key)
      .filter((key) => !/_(one|other)$/.test(key))
      .filter((key) => !NUMBER_ONLY.has(key));
    expect(single).toEqual([]);
  });

  it('read "1 case" and "2 cases"', () => {
    expect(english.t('csvImport.run', { count: 1 })).toBe('Update 1 case');
    expect(english.t('csvImport.run', { count: 2 })).toBe('Update 2 cases');
    expect(english.t('csvImport.rows', { count: 1 })).toBe('1 row');
    expect(english.t('caseList.transfer.success', { count: 1, group: 'A' })).toBe('1 case transferred to A');
  });
});
