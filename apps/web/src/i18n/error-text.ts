import { MESSAGES, type MessageKey } from '@pathology/contract';
import type { ParseKeys, TFunction } from 'i18next';
import { TimeoutError } from '../api/errors.ts';

/** Server messages with the spec's fixed wording, shown in the user's language; anything else is shown as sent. */
const translatedMessages = {
  unexpectedError: 'serverMessages.unexpectedError',
  validationFailed: 'serverMessages.validationFailed',
  notFound: 'serverMessages.notFound',
  serviceUnavailable: 'serverMessages.serviceUnavailable',
  forbidden: 'serverMessages.forbidden',
  unauthorized: 'serverMessages.unauthorized',
  fieldRequired: 'serverMessages.fieldRequired',
  fieldEmail: 'serverMessages.fieldEmail',
  fieldNulCharacter: 'serverMessages.fieldNulCharacter',
} as const satisfies Partial<Record<MessageKey, ParseKeys>>;

const keyByMessage = new Map<string, ParseKeys>(
  Object.entries(translatedMessages).map(([key, translationKey]) => [MESSAGES[key as MessageKey], translationKey]),
);

/** The text to show for a failed call or a server-sent message. */
export function errorText(error: unknown, t: TFunction): string {
  if (error instanceof TimeoutError) return t('errors.timeout');
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : MESSAGES.unexpectedError;
  const key = keyByMessage.get(message);
  return key ? t(key) : message;
}
