import { describe, expect, it } from 'vitest';
import { resources } from './index.ts';

const ja = resources.ja.translation;
const en = resources.en.translation;

/** Flattens a nested catalogue into [dotted key, text] pairs. */
function leaves(node: unknown, prefix = ''): [string, string][] {
  if (typeof node !== 'object' || node === null) return [[prefix, String(node)]];
  return Object.entries(node).flatMap(([key, child]) => leaves(child, prefix ? `${prefix}.${key}` : key));
}

function placeholdersByKey(catalogue: unknown): Record<string, string[]> {
  return Object.fromEntries(
    leaves(catalogue).map(([key, text]) => [key, [...text.matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1] ?? '').sort()]),
  );
}

describe('translation catalogues', () => {
  it('have the same keys in Japanese and English', () => {
    const keysOf = (catalogue: unknown) => leaves(catalogue).map(([key]) => key);
    expect(keysOf(ja).sort()).toEqual(keysOf(en).sort());
  });

  it('use the same interpolation placeholders in both languages', () => {
    expect(placeholdersByKey(ja)).toEqual(placeholdersByKey(en));
  });

  it('have no blank texts', () => {
    const blank = [...leaves(ja), ...leaves(en)].filter(([, text]) => text.trim() === '');
    expect(blank).toEqual([]);
  });
});
