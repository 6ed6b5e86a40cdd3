import { MESSAGES } from '@pathology/contract';
import type { TFunction } from 'i18next';
import { errorText } from '../../i18n/error-text.ts';
import { TAG_TOO_LONG_MESSAGE } from './case-form.ts';

/** A field's message (the contract's wording, from the form's own checks or the server) in the user's language. */
export function fieldErrorText(message: string | undefined, t: TFunction): string | undefined {
  if (message === undefined) return undefined;
  if (message === MESSAGES.fieldRequired) return t('caseDetail.form.errors.required');
  if (message === TAG_TOO_LONG_MESSAGE) return t('caseDetail.form.errors.tagTooLong');
  return errorText(message, t);
}
