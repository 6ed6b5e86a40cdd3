import { CaseSchema, CaseSearchResponseSchema, type Case } from '@pathology/contract';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { errorText } from '../../i18n/error-text.ts';
import { readCsv, type CsvProblem, type CsvRow } from './csv-file.ts';
import { csvRows } from './csv-rows.store.ts';

export type ImportPhase = 'idle' | 'reading' | 'checking' | 'previewing' | 'updating' | 'done';
export type CsvErrorType = 'CASE_NUMBER_NOT_FOUND' | 'DUPLICATE_CASE_NUMBER';

/** A chosen file that cannot be imported: unreadable (no `parse`), or read with a problem in its content. */
export interface ImportProblem {
  filename: string;
  parse?: CsvProblem;
}

/** A row of the file and what the import found and did with it (part 3 §3 "CSV record"). */
export interface CsvRecord extends CsvRow {
  caseId: string | null;
  /** The case as it is now, for the old → new preview. */
  current: Case | null;
  status: 'waiting' | 'checked' | 'updated' | 'failed';
  previewStatus: 'valid' | 'not-valid' | null;
  errorType: CsvErrorType | null;
  /** Why the update of a valid row failed. */
  failure: string | null;
}

/** Found by case number: exactly one case is a match, none or several are not (part 3 §4). */
async function lookUp(
  caseNumber: string,
): Promise<Pick<CsvRecord, 'caseId' | 'current' | 'previewStatus' | 'errorType'>> {
  const found = await api.post(
    '/cases/search',
    {
      query: [{ field: 'caseNumber', operator: 'is', value: caseNumber }],
      page: 1,
      limit: 2,
      order: { field: 'id', direction: 'asc' },
    },
    { schema: CaseSearchResponseSchema },
  );
  if (found.data.length !== 1) {
    return {
      caseId: null,
      current: null,
      previewStatus: 'not-valid',
      errorType: found.data.length === 0 ? 'CASE_NUMBER_NOT_FOUND' : 'DUPLICATE_CASE_NUMBER',
    };
  }
  const id = found.data[0]!.id;
  const current = await api.get(`/cases/${encodeURIComponent(id)}`, { schema: CaseSchema });
  return { caseId: id, current, previewStatus: 'valid', errorType: null };
}

/**
 * The CSV import of part 3 §2/§4: idle → checking (each row looked up by case number, one at a time)
 * → previewing → updating (PATCH cases/{id}, one at a time; a failed row keeps its reason, the others
 * go on) → done. Back from previewing and Reset after done return to idle. The menu badge shows the rows.
 */
export function useCsvImport() {
  const { t } = useTranslation();
  const [phase, setPhase] = useState<ImportPhase>('idle');
  const [records, setRecords] = useState<CsvRecord[]>([]);
  const [problem, setProblem] = useState<ImportProblem | null>(null);
  const [file, setFile] = useState<{ name: string; encoding: string } | null>(null);
  const [done, setDone] = useState(0);
  // Bumped by Reset: a check or update still running for an earlier file stops writing.
  const run = useRef(0);

  const change = (index: number, patch: Partial<CsvRecord>) =>
    setRecords((previous) => previous.map((record, at) => (at === index ? { ...record, ...patch } : record)));

  const reset = () => {
    run.current++;
    setPhase('idle');
    setRecords([]);
    setProblem(null);
    setFile(null);
    setDone(0);
    csvRows.set(0);
  };

  const load = async (chosen: File) => {
    reset();
    const current = run.current;
    setPhase('reading');
    let bytes: ArrayBuffer;
    try {
      bytes = await chosen.arrayBuffer();
    } catch {
      // The browser could not read the file (moved, changed or unreadable since it was chosen).
      if (current !== run.current) return;
      setProblem({ filename: chosen.name });
      setPhase('idle');
      return;
    }
    const result = readCsv(new Uint8Array(bytes));
    if (current !== run.current) return;
    if (!result.ok) {
      setProblem({ filename: chosen.name, parse: result.problem });
      setPhase('idle');
      return;
    }
    const loaded = result.rows.map((row): CsvRecord => ({
      ...row,
      caseId: null,
      current: null,
      status: 'waiting',
      previewStatus: null,
      errorType: null,
      failure: null,
    }));
    setFile({ name: chosen.name, encoding: result.encoding });
    setRecords(loaded);
    csvRows.set(loaded.length);
    setPhase('checking');
    for (const [index, record] of loaded.entries()) {
      try {
        const found = await lookUp(record.caseNumber);
        if (current !== run.current) return;
        change(index, { ...found, status: 'checked' });
      } catch (error) {
        if (current !== run.current) return;
        change(index, { status: 'failed', previewStatus: 'not-valid', failure: errorText(error, t) });
      }
      setDone(index + 1);
    }
    setPhase('previewing');
  };

  const update = async () => {
    const current = run.current;
    setPhase('updating');
    setDone(0);
    const valid = records
      .map((record, index) => ({ record, index }))
      .filter(({ record }) => record.previewStatus === 'valid');
    for (const [position, { record, index }] of valid.entries()) {
      try {
        await api.patch(`/cases/${encodeURIComponent(record.caseId!)}`, record.changes, { schema: CaseSchema });
        if (current !== run.current) return;
        change(index, { status: 'updated' });
      } catch (error) {
        if (current !== run.current) return;
        change(index, { status: 'failed', failure: errorText(error, t) });
      }
      setDone(position + 1);
    }
    setPhase('done');
  };

  return {
    phase,
    records,
    problem,
    file,
    /** Rows looked up (checking) or valid rows sent (updating) so far. */
    done,
    load: (chosen: File) => void load(chosen),
    update: () => void update(),
    reset,
  };
}

export type CsvImport = ReturnType<typeof useCsvImport>;
