import { SPECIMEN_TYPES, type UpdateCaseRequest } from '@pathology/contract';
import Encoding from 'encoding-japanese';
import Papa from 'papaparse';

/** Part 3 §9 keeps imports to a size one person reviews: larger files are refused. */
export const MAX_CSV_ROWS = 10_000;

/** The columns a CSV may have; only caseNumber is required. Documented in the README. */
export const CSV_COLUMNS = [
  'caseNumber',
  'diagnosis',
  'organ',
  'specimenType',
  'grossFindings',
  'microscopicFindings',
  'comments',
  'tags',
] as const;
export type CsvColumn = (typeof CSV_COLUMNS)[number];

/** What a row sets on its case: the cells that are not empty. */
export type CaseChanges = Pick<
  UpdateCaseRequest,
  'diagnosis' | 'organ' | 'specimenType' | 'grossFindings' | 'microscopicFindings' | 'comments' | 'tags'
>;

export interface CsvRow {
  /** Line of the file the row starts on (the header is line 1). */
  line: number;
  caseNumber: string;
  changes: CaseChanges;
}

/** Why a file cannot be imported, with the line it concerns (0 for the file as a whole). */
export interface CsvProblem {
  key:
    | 'empty'
    | 'tooManyRows'
    | 'unknownColumn'
    | 'missingCaseNumberColumn'
    | 'malformed'
    | 'noCaseNumber'
    | 'badSpecimenType';
  line: number;
  detail?: string;
}

export type CsvReadResult = { ok: true; rows: CsvRow[]; encoding: string } | { ok: false; problem: CsvProblem };

/** The file's text: Shift_JIS (Excel's usual Japanese CSV) or UTF-8, with or without a byte order mark. */
export function decodeCsv(bytes: Uint8Array): { text: string; encoding: string } {
  const detected = Encoding.detect(bytes);
  const encoding = detected === 'SJIS' || detected === 'EUCJP' ? detected : 'UTF8';
  const text =
    encoding === 'UTF8'
      ? new TextDecoder('utf-8').decode(bytes)
      : Encoding.convert(bytes, { to: 'UNICODE', from: encoding, type: 'string' });
  return {
    text: text.replace(/^\uFEFF/, ''),
    encoding: encoding === 'UTF8' ? 'UTF-8' : encoding === 'SJIS' ? 'Shift_JIS' : 'EUC-JP',
  };
}

const isColumn = (name: string): name is CsvColumn => (CSV_COLUMNS as readonly string[]).includes(name);
const isSpecimenType = (value: string): value is (typeof SPECIMEN_TYPES)[number] =>
  (SPECIMEN_TYPES as readonly string[]).includes(value);

function changesOf(record: Record<string, string>): CaseChanges | CsvProblem['key'] {
  const changes: CaseChanges = {};
  for (const [column, raw] of Object.entries(record)) {
    const value = raw.trim();
    if (column === 'caseNumber' || value === '') continue;
    if (column === 'tags')
      changes.tags = value
        .split(',')
        .map((tag) => tag.trim())
        .filter(Boolean);
    else if (column === 'specimenType') {
      if (!isSpecimenType(value)) return 'badSpecimenType';
      changes.specimenType = value;
    } else changes[column as Exclude<CsvColumn, 'caseNumber' | 'tags' | 'specimenType'>] = value;
  }
  return changes;
}

/**
 * Reads an import CSV: its encoding detected, parsed by papaparse with a header row. Anything wrong
 * (empty file, unbalanced quotes, an unknown column, a row without case number, too many rows) is
 * one problem naming its line, and nothing is imported.
 */
export function readCsv(bytes: Uint8Array): CsvReadResult {
  const { text, encoding } = decodeCsv(bytes);
  if (text.trim() === '') return { ok: false, problem: { key: 'empty', line: 0 } };
  const parsed = Papa.parse<Record<string, string>>(text, {
    header: true,
    skipEmptyLines: 'greedy',
    transformHeader: (h) => h.trim(),
  });
  // A one-column file has no delimiter to detect; papaparse then reads it with commas, which is right.
  const error = parsed.errors.find((candidate) => candidate.type !== 'Delimiter');
  if (error) {
    // papaparse counts data rows from 0 (the header is line 1); an open quote is reported on the row it swallowed.
    const line = error.row === undefined ? 0 : error.row + (error.type === 'Quotes' ? 1 : 2);
    return { ok: false, problem: { key: 'malformed', line, detail: error.message } };
  }
  const header = parsed.meta.fields ?? [];
  const unknown = header.find((name) => !isColumn(name));
  if (unknown !== undefined) return { ok: false, problem: { key: 'unknownColumn', line: 1, detail: unknown } };
  if (!header.includes('caseNumber')) return { ok: false, problem: { key: 'missingCaseNumberColumn', line: 1 } };
  if (parsed.data.length === 0) return { ok: false, problem: { key: 'empty', line: 0 } };
  if (parsed.data.length > MAX_CSV_ROWS) {
    return { ok: false, problem: { key: 'tooManyRows', line: MAX_CSV_ROWS + 2, detail: String(MAX_CSV_ROWS) } };
  }
  const rows: CsvRow[] = [];
  for (const [index, record] of parsed.data.entries()) {
    const line = index + 2;
    const caseNumber = (record.caseNumber ?? '').trim();
    if (caseNumber === '') return { ok: false, problem: { key: 'noCaseNumber', line } };
    const changes = changesOf(record);
    if (typeof changes === 'string') return { ok: false, problem: { key: changes, line } };
    rows.push({ line, caseNumber, changes });
  }
  return { ok: true, rows, encoding };
}
