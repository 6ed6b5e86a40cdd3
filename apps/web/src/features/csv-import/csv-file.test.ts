import Encoding from 'encoding-japanese';
import { describe, expect, it } from 'vitest';
import { MAX_CSV_ROWS, readCsv } from './csv-file.ts';

const utf8 = (text: string) => new TextEncoder().encode(text);
const shiftJis = (text: string) =>
  Uint8Array.from(Encoding.convert(Encoding.stringToCode(text), { to: 'SJIS', from: 'UNICODE' }));

const SAMPLE = 'caseNumber,diagnosis,tags,specimenType\nS-26-001,胃癌（高分化型）,"HE,教育",biopsy\nS-26-002,,,\n';

describe('readCsv', () => {
  it('reads UTF-8 with and without a byte order mark, and Shift_JIS, to the same rows', () => {
    const expected = [
      {
        line: 2,
        caseNumber: 'S-26-001',
        changes: { diagnosis: '胃癌（高分化型）', tags: ['HE', '教育'], specimenType: 'biopsy' },
      },
      { line: 3, caseNumber: 'S-26-002', changes: {} },
    ];
    expect(readCsv(utf8(SAMPLE))).toEqual({ ok: true, rows: expected, encoding: 'UTF-8' });
    expect(readCsv(utf8(`\uFEFF${SAMPLE}`))).toEqual({ ok: true, rows: expected, encoding: 'UTF-8' });
    expect(readCsv(shiftJis(SAMPLE))).toEqual({ ok: true, rows: expected, encoding: 'Shift_JIS' });
  });

  it('refuses a malformed file with one problem naming its line', () => {
    expect(readCsv(utf8(''))).toEqual({ ok: false, problem: { key: 'empty', line: 0 } });
    expect(readCsv(utf8('caseNumber,diagnosis\n'))).toEqual({ ok: false, problem: { key: 'empty', line: 0 } });
    expect(readCsv(utf8('caseNumber,colour\nS-1,red\n'))).toEqual({
      ok: false,
      problem: { key: 'unknownColumn', line: 1, detail: 'colour' },
    });
    expect(readCsv(utf8('diagnosis\nx\n'))).toMatchObject({ ok: false, problem: { key: 'missingCaseNumberColumn' } });
    const quotes = readCsv(utf8('caseNumber,diagnosis\nS-1,ok\nS-2,"never closed\n'));
    expect(quotes).toMatchObject({ ok: false, problem: { key: 'malformed', line: 3 } });
    expect(readCsv(utf8('caseNumber,diagnosis\nS-1,ok\n,orphan\n'))).toEqual({
      ok: false,
      problem: { key: 'noCaseNumber', line: 3 },
    });
    expect(readCsv(utf8('caseNumber,specimenType\nS-1,needle\n'))).toEqual({
      ok: false,
      problem: { key: 'badSpecimenType', line: 2 },
    });
    const many = `caseNumber\n${Array.from({ length: MAX_CSV_ROWS + 1 }, (_, i) => `S-${i}`).join('\n')}\n`;
    expect(readCsv(utf8(many))).toMatchObject({ ok: false, problem: { key: 'tooManyRows' } });
  });
});
