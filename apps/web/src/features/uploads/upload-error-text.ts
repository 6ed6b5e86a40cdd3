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
