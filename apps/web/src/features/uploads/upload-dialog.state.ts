import { IMAGE_MESSAGES, type UploadKind } from '@pathology/contract';
import { uploadKindsOf } from './file-types.ts';

/** An existing case the typed number matched: its id, image names (for duplicates) and image count. */
export interface CaseMatch {
  id: string;
  caseNumber: string;
  filenames: readonly string[];
  imageCount: number;
}

export interface DraftCase {
  key: string;
  caseNumber: string;
  /** undefined while looking the number up, null for a new case. */
  match: CaseMatch | null | undefined;
}

export interface DraftFile {
  key: string;
  caseKey: string;
  file: File;
  displayName: string;
  supported: boolean;
  /** What the file may go in as (empty when unsupported); a choice only with both. */
  kinds: readonly UploadKind[];
  /** What it goes in as: the first of `kinds` unless the user chose the other. */
  kind: UploadKind;
}

export interface DialogState {
  cases: readonly DraftCase[];
  files: readonly DraftFile[];
  /** Names of the last selection when none of it was supported. */
  rejected: readonly string[];
  /** Names of chosen files that could not be read as their type says: left out, the rest of the batch kept. */
  unparsable: readonly string[];
}

let sequence = 0;
const key = (prefix: string) => `${prefix}${sequence++}`;

export function initialDialogState(): DialogState {
  return { cases: [{ key: key('case'), caseNumber: '', match: null }], files: [], rejected: [], unparsable: [] };
}

const filesOf = (state: DialogState, caseKey: string) => state.files.filter((file) => file.caseKey === caseKey);

/** Adds chosen files to a case: a name already in that case is not added twice; unsupported ones are listed. */
export function addFiles(state: DialogState, caseKey: string, files: readonly File[]): DialogState {
  const names = new Set(filesOf(state, caseKey).map((draft) => draft.file.name));
  const added: DraftFile[] = [];
  for (const file of files) {
    if (names.has(file.name)) continue;
    names.add(file.name);
    const kinds = uploadKindsOf(file.name);
    const supported = kinds.length > 0;
    added.push({
      key: key('file'),
      caseKey,
      file,
      displayName: file.name,
      supported,
      kinds,
      kind: kinds[0] ?? 'image',
    });
  }
  const noneSupported = files.length > 0 && !files.some((file) => uploadKindsOf(file.name).length > 0);
  return {
    ...state,
    files: [...state.files, ...added.filter((draft) => draft.supported || !noneSupported)],
    rejected: noneSupported ? files.map((file) => file.name) : [],
  };
}

/** Leaves out files whose reading failed, wherever they were added or copied, and names them. */
export function dropUnparsable(state: DialogState, failed: readonly File[]): DialogState {
  if (failed.length === 0) return state;
  const names = failed.map((file) => file.name).filter((name) => !state.unparsable.includes(name));
  return {
    ...state,
    files: state.files.filter((draft) => !failed.includes(draft.file)),
    unparsable: [...state.unparsable, ...names],
  };
}

export function removeFile(state: DialogState, fileKey: string): DialogState {
  return { ...state, files: state.files.filter((file) => file.key !== fileKey) };
}

/** Copies (or moves) a file to another case, unless that case already lists the name. */
export function transferFile(state: DialogState, fileKey: string, toCaseKey: string, move: boolean): DialogState {
  const draft = state.files.find((file) => file.key === fileKey);
  if (!draft || draft.caseKey === toCaseKey) return state;
  const taken = filesOf(state, toCaseKey).some((file) => file.file.name === draft.file.name);
  const rest = move ? state.files.filter((file) => file.key !== fileKey) : state.files;
  if (taken) return { ...state, files: rest };
  return { ...state, files: [...rest, { ...draft, key: key('file'), caseKey: toCaseKey }] };
}

export function renameFile(state: DialogState, fileKey: string, displayName: string): DialogState {
  return { ...state, files: state.files.map((file) => (file.key === fileKey ? { ...file, displayName } : file)) };
}

/** Makes a file an image or an attachment, where its type allows both (forceImage / forceAttachment, part 1 §5). */
export function setFileKind(state: DialogState, fileKey: string, kind: UploadKind): DialogState {
  return {
    ...state,
    files: state.files.map((file) => (file.key === fileKey && file.kinds.includes(kind) ? { ...file, kind } : file)),
  };
}

/** The upload item's flags: an attachment is always forced; an image only when it could have been an attachment. */
export function forceFlags(draft: DraftFile): { forceAttachment: boolean; forceImage: boolean } {
  return { forceAttachment: draft.kind === 'attachment', forceImage: draft.kind === 'image' && draft.kinds.length > 1 };
}

export function addCase(state: DialogState): DialogState {
  return { ...state, cases: [...state.cases, { key: key('case'), caseNumber: '', match: null }] };
}

export function removeCase(state: DialogState, caseKey: string): DialogState {
  if (state.cases.length <= 1) return state;
  return {
    ...state,
    cases: state.cases.filter((draft) => draft.key !== caseKey),
    files: state.files.filter((file) => file.caseKey !== caseKey),
  };
}

export function setCase(state: DialogState, caseKey: string, patch: Partial<Omit<DraftCase, 'key'>>): DialogState {
  return { ...state, cases: state.cases.map((draft) => (draft.key === caseKey ? { ...draft, ...patch } : draft)) };
}

export interface CaseCheck {
  /** Files to upload (supported), images and attachments. */
  uploadable: readonly DraftFile[];
  /** Keys of files whose name the chosen case already has. */
  duplicates: ReadonlySet<string>;
  missingNumber: boolean;
  /** Images after this upload above the maximum: the not-blocking warning. */
  exceedsMax: boolean;
  loading: boolean;
}

export function checkCase(state: DialogState, draft: DraftCase, maxImages: number): CaseCheck {
  const uploadable = filesOf(state, draft.key).filter((file) => file.supported);
  // Duplicates and the image count concern images; the server refuses an attachment's duplicate name itself.
  const images = uploadable.filter((file) => file.kind === 'image');
  const existing = new Set(draft.match?.filenames ?? []);
  const duplicates = new Set(images.filter((file) => existing.has(file.file.name)).map((file) => file.key));
  const imageCount = (draft.match?.imageCount ?? 0) + images.length;
  return {
    uploadable,
    duplicates,
    missingNumber: draft.caseNumber.trim() === '',
    exceedsMax: imageCount > maxImages,
    loading: draft.match === undefined && draft.caseNumber.trim() !== '',
  };
}

/** Upload is allowed with at least one file, every case with files numbered and looked up, and no duplicate. */
export function canSubmit(state: DialogState, maxImages: number): boolean {
  let files = 0;
  for (const draft of state.cases) {
    const check = checkCase(state, draft, maxImages);
    if (check.uploadable.length === 0) continue;
    if (check.missingNumber || check.loading || check.duplicates.size > 0) return false;
    files += check.uploadable.length;
  }
  return files > 0;
}

export const DUPLICATE_FILE_ERROR = IMAGE_MESSAGES.duplicateFile;
