import { describe, expect, it } from 'vitest';
import { caseNumberFromFilename } from './batch-upload.ts';

describe('caseNumberFromFilename', () => {
  it.each([
    ['S-2024-001--a.svs', 'S-2024-001'],
    ['S-2024-002.svs', 'S-2024-002'],
    ['S-2024-003--HE--level2.ndpi', 'S-2024-003'],
    ['S-2024-004--', 'S-2024-004'],
    [' S-2024-005 --x.svs', 'S-2024-005'],
    ['S-2024-006 .tiff', 'S-2024-006'],
    ['S.2024.007.svs', 'S.2024.007'],
    ['S-2024-008', 'S-2024-008'],
    ['.svs', '.svs'],
    ['--a.svs', ''],
  ])('reads %s as case %s', (filename, caseNumber) => {
    expect(caseNumberFromFilename(filename)).toBe(caseNumber);
  });
});
