import { MESSAGES, type MessageKey } from '@pathology/contract';
import type { ParseKeys, TFunction } from 'i18next';
import { AuthError, TimeoutError } from '../api/errors.ts';

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
  bodyNestedTooDeep: 'serverMessages.bodyNestedTooDeep',
  storageLimitExceeded: 'serverMessages.storageLimitExceeded',
  storageFull: 'serverMessages.storageFull',
  storageUnavailable: 'serverMessages.storageUnavailable',
  organizationLimitReached: 'serverMessages.organizationLimitReached',
  organizationSettingsOwnerOnly: 'serverMessages.organizationSettingsOwnerOnly',
  organizationHasCases: 'serverMessages.organizationHasCases',
  alreadyMember: 'serverMessages.alreadyMember',
  notInvited: 'serverMessages.notInvited',
  contractHasGroups: 'serverMessages.contractHasGroups',
  endDateBeforeStart: 'serverMessages.endDateBeforeStart',
  drawingOutsideImage: 'serverMessages.drawingOutsideImage',
  alignmentSameImage: 'serverMessages.alignmentSameImage',
  positionOutsideImage: 'serverMessages.positionOutsideImage',
  alignmentPointOutsideImage: 'serverMessages.alignmentPointOutsideImage',
  alignmentPointsDegenerate: 'serverMessages.alignmentPointsDegenerate',
} as const satisfies Partial<Record<MessageKey, ParseKeys>>;

const keyByMessage = new Map<string, ParseKeys>(
  Object.entries(translatedMessages).map(([key, translationKey]) => [MESSAGES[key as MessageKey], translationKey]),
);

/** "This field must be at most ${max} characters" with its limit filled in (part 3 §5). */
const MAX_LENGTH_MESSAGE = new RegExp(`^${MESSAGES.fieldMaxLength.replace('${max}', '(\\d+)')}$`);

/** The text to show for a failed call or a server-sent message. */
export function errorText(error: unknown, t: TFunction): string {
  if (error instanceof TimeoutError) return t('errors.timeout');
  // A 404 of a call (the web treats it as an auth error): what the user was working on is gone or hidden.
  if (error instanceof AuthError) return t('serverMessages.notFound');
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : MESSAGES.unexpectedError;
  const key = keyByMessage.get(message);
  if (key) return t(key);
  const maxLength = MAX_LENGTH_MESSAGE.exec(message);
  return maxLength ? t('serverMessages.fieldMaxLength', { max: Number(maxLength[1]) }) : message;
}

/** A form field's message (the form's own check or the server's), in the user's language; none without one. */
export function fieldErrorText(message: string | undefined, t: TFunction): string | undefined {
  return message === undefined ? undefined : errorText(message, t);
}
