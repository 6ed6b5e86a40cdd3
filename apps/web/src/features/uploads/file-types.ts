import { ATTACHMENT_EXTENSIONS, IMAGE_EXTENSIONS, IMAGE_UPLOAD_EXTENSIONS, type UploadKind } from '@pathology/contract';

/** The extension with its dot, lower case ("" when there is none). */
export function extensionOf(filename: string): string {
  const dot = filename.lastIndexOf('.');
  return dot > 0 ? filename.slice(dot).toLowerCase() : '';
}

/** Types the case detail and the bulk flow take; the list dialog takes zips and iSyntax as well (part 1 §5). */
export const CASE_IMAGE_EXTENSIONS: readonly string[] = IMAGE_EXTENSIONS;
export const DIALOG_IMAGE_EXTENSIONS: readonly string[] = IMAGE_UPLOAD_EXTENSIONS;

/** The list dialog takes attachments as well: a file goes in as an image or as an attachment (part 1 §5). */
export const DIALOG_EXTENSIONS: readonly string[] = [
  ...new Set([...IMAGE_UPLOAD_EXTENSIONS, ...ATTACHMENT_EXTENSIONS]),
];

/**
 * What a file of the list dialog may become: an image, an attachment, or either (a JPEG, a zip); the first is the
 * default. None for a type neither takes.
 */
export function uploadKindsOf(filename: string): UploadKind[] {
  const kinds: UploadKind[] = [];
  if (isSupportedFile(filename, DIALOG_IMAGE_EXTENSIONS)) kinds.push('image');
  if (isSupportedFile(filename, ATTACHMENT_EXTENSIONS)) kinds.push('attachment');
  return kinds;
}

export function isSupportedFile(filename: string, extensions: readonly string[]): boolean {
  return extensions.includes(extensionOf(filename));
}

/** The `accept` attribute of a file input. */
export const acceptOf = (extensions: readonly string[]) => extensions.join(',');

export interface FileSelection {
  supported: File[];
  unsupported: File[];
  /** Names already chosen (or repeated in this selection): not added twice. */
  repeated: File[];
}

/** Splits chosen files into supported, unsupported and already chosen (by name). */
export function selectFiles(
  files: Iterable<File>,
  extensions: readonly string[],
  alreadyChosen: Iterable<string> = [],
): FileSelection {
  const seen = new Set(alreadyChosen);
  const selection: FileSelection = { supported: [], unsupported: [], repeated: [] };
  for (const file of files) {
    if (seen.has(file.name)) selection.repeated.push(file);
    else if (!isSupportedFile(file.name, extensions)) selection.unsupported.push(file);
    else selection.supported.push(file);
    seen.add(file.name);
  }
  return selection;
}

/** "12.3 MB" */
export function formatBytes(bytes: number, locale?: string): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(value)} ${units[unit]}`;
}
