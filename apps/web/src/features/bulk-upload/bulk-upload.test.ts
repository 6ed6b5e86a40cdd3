import type { BatchParseItem } from '@pathology/contract';
import { describe, expect, it } from 'vitest';
import { createUploadEngine } from '../uploads/upload-engine.ts';
import type { UploadTransport } from '../uploads/upload-types.ts';
import {
  bulkReducer,
  INITIAL_BULK_STATE,
  skippedFiles,
  uploadableFiles,
  type BulkState,
} from './bulk-upload.machine.ts';
import { caseNumberFromFilename } from '@pathology/contract';
import { dicomInstance } from '../uploads/dicom-test-instance.test-support.ts';
import { groupDicomSeries } from '../uploads/dicom-series.ts';
import { startBulkUpload } from './start-bulk-upload.ts';

const file = (name: string) => new File(['x'], name);
const parsed = (filename: string, patch: Partial<BatchParseItem> = {}): BatchParseItem => ({
  filename,
  caseNumber: caseNumberFromFilename(filename),
  caseId: null,
  exists: false,
  fileAlreadyExists: false,
  ...patch,
});
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

function previewing(names: string[], items: BatchParseItem[]): BulkState {
  let state = bulkReducer(INITIAL_BULK_STATE, { type: 'add', files: names.map(file) });
  state = bulkReducer(state, { type: 'preview', organizationId: 'org' });
  return bulkReducer(state, { type: 'parsed', items });
}

describe('caseNumberFromFilename', () => {
  it('takes the part before "--", else drops the extension', () => {
    expect(caseNumberFromFilename('S-2024-001--HE.svs')).toBe('S-2024-001');
    expect(caseNumberFromFilename('S-2024-001.svs')).toBe('S-2024-001');
    expect(caseNumberFromFilename(' A1 --x--y.ndpi')).toBe('A1');
    expect(caseNumberFromFilename('archive.tar.gz')).toBe('archive.tar');
    expect(caseNumberFromFilename('.svs')).toBe('.svs');
    expect(caseNumberFromFilename('--a.svs')).toBe('');
  });
});

describe('bulk upload state machine', () => {
  it('adds files once per name and marks unsupported ones', () => {
    let state = bulkReducer(INITIAL_BULK_STATE, { type: 'add', files: [file('a.svs'), file('b.pdf')] });
    state = bulkReducer(state, { type: 'add', files: [file('a.svs')] });
    expect(state.files.map((f) => [f.file.name, f.supported])).toEqual([
      ['a.svs', true],
      ['b.pdf', false],
    ]);
  });

  it('goes adding → parsing → previewing → uploading → done, and Reset empties the list', () => {
    const state = previewing(['a.svs'], [parsed('a.svs')]);
    expect(state.step).toBe('previewing');
    expect(state.files[0]?.parsed?.caseNumber).toBe('a');
    const uploading = bulkReducer(state, { type: 'start', itemIds: ['u1'] });
    expect(uploading.step).toBe('uploading');
    expect(bulkReducer(uploading, { type: 'reset' })).toBe(uploading);
    const done = bulkReducer(uploading, { type: 'groupEnd' });
    expect(done.step).toBe('done');
    expect(bulkReducer(done, { type: 'reset' })).toEqual(INITIAL_BULK_STATE);
  });

  it('returns from a parsing error to adding with Back', () => {
    let state = bulkReducer(INITIAL_BULK_STATE, { type: 'add', files: [file('a.svs')] });
    state = bulkReducer(state, { type: 'preview', organizationId: 'org' });
    state = bulkReducer(state, { type: 'parseFailed', message: 'Unexpected error' });
    expect(state).toMatchObject({ step: 'parsingError', error: 'Unexpected error' });
    state = bulkReducer(state, { type: 'back' });
    expect(state.step).toBe('adding');
    expect(state.files).toHaveLength(1);
  });

  it('leaves unreadable files out at the parsing error and keeps the others for Back', () => {
    let state = bulkReducer(INITIAL_BULK_STATE, { type: 'add', files: [file('a.svs'), file('b.tif')] });
    state = bulkReducer(state, { type: 'preview', organizationId: 'org' });
    const bad = state.files.find((entry) => entry.file.name === 'b.tif')?.key ?? '';
    state = bulkReducer(state, { type: 'unparsable', keys: [bad] });
    expect(state).toMatchObject({ step: 'parsingError', unparsable: ['b.tif'] });
    state = bulkReducer(state, { type: 'back' });
    expect(state.step).toBe('adding');
    expect(state.unparsable).toBeUndefined();
    expect(state.files.map((entry) => entry.file.name)).toEqual(['a.svs']);
  });

  it('does not preview without a supported file, nor add files while previewing', () => {
    const onlyPdf = bulkReducer(INITIAL_BULK_STATE, { type: 'add', files: [file('a.pdf')] });
    expect(bulkReducer(onlyPdf, { type: 'preview', organizationId: 'org' })).toBe(onlyPdf);
    const state = previewing(['a.svs'], [parsed('a.svs')]);
    expect(bulkReducer(state, { type: 'add', files: [file('b.svs')] })).toBe(state);
  });

  it('skips duplicates, unsupported files and unparsable names', () => {
    const state = previewing(
      ['a.svs', 'b.svs', 'c.txt', '--d.svs'],
      [
        parsed('a.svs'),
        parsed('b.svs', { fileAlreadyExists: true }),
        parsed('--d.svs', { error: 'The filename does not start with a case number' }),
      ],
    );
    expect(uploadableFiles(state).map((f) => f.file.name)).toEqual(['a.svs']);
    expect(skippedFiles(state).map((f) => f.file.name)).toEqual(['b.svs', 'c.txt', '--d.svs']);
  });
});

describe('startBulkUpload', () => {
  it('creates a new case before its files and fails every file of a case that cannot be created', async () => {
    const sent: string[] = [];
    const transport: UploadTransport = async (item) => {
      sent.push(`${item.caseId}/${item.filename}`);
      return { id: `id-${item.filename}`, filename: item.filename };
    };
    const engine = createUploadEngine({ transport });
    const state = previewing(
      ['A--1.svs', 'A--2.svs', 'B--1.svs', 'B--2.svs', 'C--1.svs'],
      [
        parsed('A--1.svs'),
        parsed('A--2.svs'),
        parsed('B--1.svs'),
        parsed('B--2.svs'),
        parsed('C--1.svs', { caseId: '00000000-0000-4000-8000-00000000000c', exists: true }),
      ],
    );
    const created: string[] = [];
    const ids = startBulkUpload(engine, state, 'org', async (caseNumber) => {
      created.push(caseNumber);
      if (caseNumber === 'B') throw new Error('Case number already exists');
      return `case-${caseNumber}`;
    });
    expect(ids).toHaveLength(5);
    for (let round = 0; round < 10; round++) await flush();
    expect(created).toEqual(['A', 'B']);
    expect(sent).toEqual(['case-A/A--1.svs', 'case-A/A--2.svs', '00000000-0000-4000-8000-00000000000c/C--1.svs']);
    expect(engine.getItems().map((item) => [item.filename, item.status, item.error])).toEqual([
      ['A--1.svs', 'uploaded', undefined],
      ['A--2.svs', 'uploaded', undefined],
      ['B--1.svs', 'upload_failed', 'Case number already exists'],
      ['B--2.svs', 'upload_failed', 'Case number already exists'],
      ['C--1.svs', 'uploaded', undefined],
    ]);
  });
});

describe('DICOM instances in the bulk upload', () => {
  it("takes a slide's .dcm files, grouped into one zip that keeps the case number, but no zip chosen as one", async () => {
    const instances = ['S-45--slide-1.dcm', 'S-45--slide-0.dcm'].map(
      (name) => new File([dicomInstance('1.2.840.45')], name),
    );
    const grouped = await groupDicomSeries(instances);
    let state = bulkReducer(INITIAL_BULK_STATE, { type: 'add', files: [...grouped, file('vsi-package.zip')] });
    expect(state.files.map(({ file: chosen, supported }) => [chosen.name, supported])).toEqual([
      ['S-45--slide-0.zip', true],
      ['vsi-package.zip', false],
    ]);
    expect(caseNumberFromFilename(state.files[0]!.file.name)).toBe('S-45');
    state = bulkReducer(state, { type: 'add', files: [new File([dicomInstance('1.2.840.46')], 'S-46--one.dcm')] });
    expect(state.files.at(-1)).toMatchObject({ supported: true });
  });
});
