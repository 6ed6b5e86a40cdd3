import { BATCH_UPLOAD_MESSAGES, IMAGE_MESSAGES } from '@pathology/contract';
import type { TFunction } from 'i18next';
import { errorText } from '../../i18n/error-text.ts';
import { UPLOAD_MESSAGES } from './upload-errors.ts';

const KNOWN: Record<string, string> = {
  [UPLOAD_MESSAGES.network]: 'network',
  [UPLOAD_MESSAGES.aborted]: 'aborted',
  [IMAGE_MESSAGES.duplicateFile]: 'duplicate',
  [IMAGE_MESSAGES.invalidVsiZip]: 'invalidVsiZip',
  [IMAGE_MESSAGES.unknownExtension]: 'unknownExtension',
  [IMAGE_MESSAGES.unsupportedFileType]: 'unsupportedFileType',
  [IMAGE_MESSAGES.contentDoesNotMatchExtension]: 'contentDoesNotMatchExtension',
  [IMAGE_MESSAGES.invalidFilename]: 'invalidFilename',
  [IMAGE_MESSAGES.emptyFile]: 'emptyFile',
  [IMAGE_MESSAGES.uploadIncomplete]: 'uploadIncomplete',
  [IMAGE_MESSAGES.uploadBusy]: 'uploadBusy',
  [BATCH_UPLOAD_MESSAGES.fileAlreadyExists]: 'fileAlreadyExists',
  [BATCH_UPLOAD_MESSAGES.noCaseNumber]: 'noCaseNumber',
};

/** Refusals of the file itself (its type, content or name): sending the same file again is refused the same way. */
const FINAL: ReadonlySet<string> = new Set([
  IMAGE_MESSAGES.duplicateFile,
  IMAGE_MESSAGES.invalidVsiZip,
  IMAGE_MESSAGES.unknownExtension,
  IMAGE_MESSAGES.unsupportedFileType,
  IMAGE_MESSAGES.contentDoesNotMatchExtension,
  IMAGE_MESSAGES.invalidFilename,
  IMAGE_MESSAGES.emptyFile,
  BATCH_UPLOAD_MESSAGES.fileAlreadyExists,
  BATCH_UPLOAD_MESSAGES.noCaseNumber,
]);

/** Whether a retry of the failed upload could succeed: not when the server refused the file for what it is. */
export function uploadRetryable(message: string | undefined): boolean {
  return message == null || !FINAL.has(message);
}

/**
 * The user's language for the spec's known upload texts and the server's catalogue messages (a full group's
 * storage limit, say); other messages and "HTTP Status: N" as is.
 */
export function translateUploadError(t: TFunction, message: string | undefined): string {
  if (!message) return '';
  if (message === UPLOAD_MESSAGES.loadFailed) return t('files.loadFailed');
  const key = KNOWN[message];
  return key ? t(`uploads.errors.${key}` as 'uploads.errors.network') : errorText(message, t);
}
