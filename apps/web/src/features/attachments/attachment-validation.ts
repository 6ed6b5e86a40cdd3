import {
  ATTACHMENT_EXTENSIONS,
  FORBIDDEN_ATTACHMENT_FILENAME_CHARS,
  MAX_ATTACHMENT_BYTES,
  attachmentExtension,
} from '@pathology/contract';

/** Why a chosen file is not uploaded (spec part 2 §5), in the order the checks run. */
export const ATTACHMENT_REJECTIONS = ['unsupported', 'duplicate', 'forbiddenCharacters', 'tooLarge', 'empty'] as const;
export type AttachmentRejection = (typeof ATTACHMENT_REJECTIONS)[number];

export interface AttachmentSelection<F> {
  accepted: F[];
  /** Names refused for each reason that applies; a file is counted under its first failing check only. */
  rejected: Partial<Record<AttachmentRejection, string[]>>;
}

/** The extensions the picker offers and the tab lists ('.pdf, .doc, …'). */
export const SUPPORTED_ATTACHMENT_EXTENSIONS: readonly string[] = ATTACHMENT_EXTENSIONS;

function rejectionOf(file: { name: string; size: number }, taken: ReadonlySet<string>): AttachmentRejection | null {
  if (attachmentExtension(file.name) === null) return 'unsupported';
  if (taken.has(file.name)) return 'duplicate';
  if (FORBIDDEN_ATTACHMENT_FILENAME_CHARS.some((character) => file.name.includes(character))) {
    return 'forbiddenCharacters';
  }
  if (file.size > MAX_ATTACHMENT_BYTES) return 'tooLarge';
  if (file.size === 0) return 'empty';
  return null;
}

/**
 * Splits chosen files into those to upload and those refused before anything is sent: an unsupported extension, a
 * name the case already has (or that is uploading, or chosen twice), # % ? in the name, more than 5 GB, or empty.
 */
export function selectAttachmentFiles<F extends { name: string; size: number }>(
  files: readonly F[],
  existingNames: Iterable<string>,
): AttachmentSelection<F> {
  const taken = new Set(existingNames);
  const selection: AttachmentSelection<F> = { accepted: [], rejected: {} };
  for (const file of files) {
    const reason = rejectionOf(file, taken);
    if (reason === null) {
      selection.accepted.push(file);
      taken.add(file.name);
    } else {
      (selection.rejected[reason] ??= []).push(file.name);
    }
  }
  return selection;
}
