import { BATCH_UPLOAD_MESSAGES, type BatchParseItem } from '@pathology/contract';
import { isDicomSeriesZip } from '../uploads/dicom-series.ts';
import { CASE_IMAGE_EXTENSIONS, isSupportedFile } from '../uploads/file-types.ts';

/** Part 1 §4: adding → parsing → previewing | parsingError; previewing → uploading → done; Reset → adding. */
export type BulkStep = 'adding' | 'parsing' | 'previewing' | 'parsingError' | 'uploading' | 'done';

export interface BulkFile {
  key: string;
  file: File;
  supported: boolean;
  /** The server's reading of the name, once previewed. */
  parsed?: BatchParseItem;
}

export interface BulkState {
  step: BulkStep;
  files: readonly BulkFile[];
  /** Why parsing failed: the server's message, or the names of files that could not be read. */
  error?: string;
  unparsable?: readonly string[];
  /** The group the batch was parsed in (and its new cases are created in). */
  organizationId?: string;
  /** Upload items of the batch, once started. */
  itemIds: readonly string[];
}

export type BulkEvent =
  | { type: 'add'; files: readonly File[] }
  | { type: 'remove'; key: string }
  | { type: 'preview'; organizationId: string }
  | { type: 'parsed'; items: readonly BatchParseItem[] }
  | { type: 'parseFailed'; message: string }
  /** Keys of files that could not be read as their type says: they leave the batch, the others stay for Back. */
  | { type: 'unparsable'; keys: readonly string[] }
  | { type: 'back' }
  | { type: 'start'; itemIds: readonly string[] }
  | { type: 'groupEnd' }
  | { type: 'reset' };

/**
 * The case page's types, and DICOM instances, which the page groups by series into one zip per slide before they
 * are added (the zip, named after the series' first file, keeps its "<case number>--").
 */
export const BULK_EXTENSIONS: readonly string[] = [...CASE_IMAGE_EXTENSIONS, '.dcm'];

const isSupported = (file: File) => isSupportedFile(file.name, BULK_EXTENSIONS) || isDicomSeriesZip(file);

export const INITIAL_BULK_STATE: BulkState = { step: 'adding', files: [], itemIds: [] };

let sequence = 0;

/** Why a previewed file will not be uploaded; undefined when it will. */
export function skipReason(file: BulkFile): string | undefined {
  if (!file.supported) return 'unsupported';
  if (file.parsed?.error) return file.parsed.error;
  if (file.parsed?.fileAlreadyExists) return BATCH_UPLOAD_MESSAGES.fileAlreadyExists;
  return undefined;
}

export const uploadableFiles = (state: BulkState) => state.files.filter((file) => skipReason(file) === undefined);
export const skippedFiles = (state: BulkState) => state.files.filter((file) => skipReason(file) !== undefined);

/** The bulk upload's transitions; an event that does not fit the current step changes nothing. */
export function bulkReducer(state: BulkState, event: BulkEvent): BulkState {
  switch (event.type) {
    case 'add': {
      if (state.step !== 'adding') return state;
      const names = new Set(state.files.map((file) => file.file.name));
      const added: BulkFile[] = [];
      for (const file of event.files) {
        if (names.has(file.name)) continue;
        names.add(file.name);
        added.push({ key: `bulk${sequence++}`, file, supported: isSupported(file) });
      }
      return { ...state, files: [...state.files, ...added] };
    }
    case 'remove':
      if (state.step !== 'adding' && state.step !== 'previewing') return state;
      return { ...state, files: state.files.filter((file) => file.key !== event.key) };
    case 'preview':
      if (state.step !== 'adding' || !state.files.some((file) => file.supported)) return state;
      return {
        ...state,
        step: 'parsing',
        error: undefined,
        unparsable: undefined,
        organizationId: event.organizationId,
      };
    case 'parsed': {
      if (state.step !== 'parsing') return state;
      const byName = new Map(event.items.map((item) => [item.filename, item]));
      return {
        ...state,
        step: 'previewing',
        files: state.files.map((file) => ({ ...file, parsed: byName.get(file.file.name) })),
      };
    }
    case 'parseFailed':
      if (state.step !== 'parsing') return state;
      return { ...state, step: 'parsingError', error: event.message };
    case 'unparsable':
      if (state.step !== 'parsing') return state;
      return {
        ...state,
        step: 'parsingError',
        unparsable: state.files.filter((file) => event.keys.includes(file.key)).map((file) => file.file.name),
        files: state.files.filter((file) => !event.keys.includes(file.key)),
      };
    case 'back':
      if (state.step !== 'previewing' && state.step !== 'parsingError') return state;
      return {
        ...state,
        step: 'adding',
        error: undefined,
        unparsable: undefined,
        files: state.files.map((file) => ({ ...file, parsed: undefined })),
      };
    case 'start':
      if (state.step !== 'previewing' || event.itemIds.length === 0) return state;
      return { ...state, step: 'uploading', itemIds: event.itemIds };
    case 'groupEnd':
      if (state.step !== 'uploading') return state;
      return { ...state, step: 'done' };
    case 'reset':
      if (state.step === 'parsing' || state.step === 'uploading') return state;
      return INITIAL_BULK_STATE;
  }
}
