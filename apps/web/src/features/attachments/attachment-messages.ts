import { ATTACHMENT_MESSAGES } from '@pathology/contract';
import type { ParseKeys, TFunction } from 'i18next';
import { errorText } from '../../i18n/error-text.ts';
import type { AttachmentRejection } from './attachment-validation.ts';
import { ATTACHMENT_UPLOAD_ERRORS } from './upload-attachment.ts';

const translatedMessages = new Map<string, ParseKeys>([
  [ATTACHMENT_MESSAGES.duplicateFiles, 'attachments.messages.duplicateFiles'],
  [ATTACHMENT_MESSAGES.forbiddenCharacters, 'attachments.messages.forbiddenCharacters'],
  [ATTACHMENT_MESSAGES.tooLarge, 'attachments.messages.tooLarge'],
  [ATTACHMENT_MESSAGES.emptyFile, 'attachments.messages.emptyFile'],
  [ATTACHMENT_MESSAGES.contentDoesNotMatchExtension, 'attachments.messages.contentDoesNotMatchExtension'],
  [ATTACHMENT_MESSAGES.uploadIncomplete, 'attachments.messages.uploadIncomplete'],
  [ATTACHMENT_UPLOAD_ERRORS.network, 'attachments.upload.network'],
  [ATTACHMENT_UPLOAD_ERRORS.aborted, 'attachments.upload.aborted'],
]);
const UNSUPPORTED_PREFIX = ATTACHMENT_MESSAGES.unsupportedFiles.replace('${names}', '');

/** Server and transport messages with the spec's wording, shown in the user's language; others as errorText does. */
export function attachmentErrorText(error: unknown, t: TFunction): string {
  const message = error instanceof Error ? error.message : '';
  const key = translatedMessages.get(message);
  if (key) return t(key);
  if (message.startsWith(UNSUPPORTED_PREFIX)) {
    return t('attachments.messages.unsupportedFiles', { names: message.slice(UNSUPPORTED_PREFIX.length) });
  }
  return errorText(error, t);
}

/** Title and text of the toast that refuses chosen files (part 2 §5). */
export function rejectionNotice(reason: AttachmentRejection, names: readonly string[], t: TFunction) {
  const list = names.join(', ');
  switch (reason) {
    case 'unsupported':
      return {
        title: t('attachments.messages.chooseAttachments'),
        message: t('attachments.messages.unsupportedFiles', { names: list }),
      };
    case 'duplicate':
      return { title: t('attachments.messages.duplicateFiles'), message: list };
    case 'forbiddenCharacters':
      return { title: t('attachments.messages.forbiddenCharacters'), message: list };
    case 'tooLarge':
      return { title: t('attachments.messages.tooLarge'), message: list };
    case 'empty':
      return { title: t('attachments.messages.emptyFile'), message: list };
  }
}
