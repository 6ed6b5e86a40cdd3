import { MESSAGES } from '@pathology/contract';
import type { TFunction } from 'i18next';
import { AuthError, TimeoutError } from '../api/errors.ts';
import { contractMessageText } from './contract-messages.ts';

/** The text to show for a failed call or a server-sent message. */
export function errorText(error: unknown, t: TFunction): string {
  if (error instanceof TimeoutError) return t('errors.timeout');
  // A 404 of a call (the web treats it as an auth error): what the user was working on is gone or hidden.
  if (error instanceof AuthError) return t('serverMessages.notFound');
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : MESSAGES.unexpectedError;
  return contractMessageText(message, t) ?? message;
}

/** A form field's message (the form's own check or the server's), in the user's language; none without one. */
export function fieldErrorText(message: string | undefined, t: TFunction): string | undefined {
  return message === undefined ? undefined : errorText(message, t);
}
