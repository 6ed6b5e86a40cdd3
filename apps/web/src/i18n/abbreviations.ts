import { resources, type Language } from './index.ts';

/**
 * The abbreviations lookup (part 2 §3: IDC, DCIS), with the ones the AI catalogue's labels and model names use.
 * Full terms live in the i18n catalogue under `catalogue.abbreviations`.
 */
export type Abbreviation = keyof (typeof resources)['en']['translation']['catalogue']['abbreviations'];

export const ABBREVIATIONS = Object.keys(resources.en.translation.catalogue.abbreviations) as Abbreviation[];

export function fullTerm(abbreviation: Abbreviation, language: Language): string {
  return resources[language].translation.catalogue.abbreviations[abbreviation];
}

export type TextPart = { text: string; abbreviation?: Abbreviation };

const escape = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// Longest first, so ASC-US is found whole rather than as a prefix; letters and hyphens may not touch either side
// ("ASC-US" inside "ASC-USX" or "NILMs" is not the abbreviation).
const PATTERN = new RegExp(
  `(?<![\\p{L}\\p{N}-])(${[...ABBREVIATIONS]
    .sort((a, b) => b.length - a.length)
    .map(escape)
    .join('|')})(?![\\p{L}\\p{N}-])`,
  'gu',
);

/** Splits `text` into plain runs and the abbreviations found in it, in order; joined, the parts give `text` back. */
export function splitAbbreviations(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(PATTERN)) {
    const start = match.index;
    if (start > last) parts.push({ text: text.slice(last, start) });
    parts.push({ text: match[0], abbreviation: match[0] as Abbreviation });
    last = start + match[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}
