import { describe, expect, it } from 'vitest';
import { ABBREVIATIONS, fullTerm, splitAbbreviations } from './abbreviations.ts';

describe('abbreviations lookup', () => {
  it('names the spec’s abbreviations in both languages (part 2 §3)', () => {
    expect(fullTerm('IDC', 'en')).toBe('invasive ductal carcinoma');
    expect(fullTerm('DCIS', 'en')).toBe('ductal carcinoma in situ');
    expect(fullTerm('IDC', 'ja')).toBe('浸潤性乳管癌');
    expect(fullTerm('DCIS', 'ja')).toBe('非浸潤性乳管癌');
  });

  it('has a full term for every abbreviation in each language', () => {
    for (const abbreviation of ABBREVIATIONS) {
      expect(fullTerm(abbreviation, 'en').trim()).not.toBe('');
      expect(fullTerm(abbreviation, 'ja').trim()).not.toBe('');
    }
  });

  it('finds abbreviations as whole words in a diagnosis or finding', () => {
    expect(splitAbbreviations('IDC, grade 2 with DCIS')).toEqual([
      { text: 'IDC', abbreviation: 'IDC' },
      { text: ', grade 2 with ' },
      { text: 'DCIS', abbreviation: 'DCIS' },
    ]);
    expect(splitAbbreviations('乳癌(IDC)')).toEqual([
      { text: '乳癌(' },
      { text: 'IDC', abbreviation: 'IDC' },
      { text: ')' },
    ]);
  });

  it('prefers the longer abbreviation and leaves words that only contain one alone', () => {
    expect(splitAbbreviations('ASC-US, ASC-H')).toEqual([
      { text: 'ASC-US', abbreviation: 'ASC-US' },
      { text: ', ' },
      { text: 'ASC-H', abbreviation: 'ASC-H' },
    ]);
    expect(splitAbbreviations('IDCS and NIDC and idc')).toEqual([{ text: 'IDCS and NIDC and idc' }]);
    expect(splitAbbreviations('')).toEqual([]);
  });
});
