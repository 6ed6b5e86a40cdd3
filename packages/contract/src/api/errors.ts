import { z } from 'zod';

/** Every error response: a message, and for validation failures the message of each field. */
export const ErrorResponseSchema = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.string()).optional(),
});
export type ErrorResponse = z.infer<typeof ErrorResponseSchema>;

/** Messages with the spec's exact wording; the web translates them by key. */
export const MESSAGES = {
  unexpectedError: 'Unexpected error',
  envRequired: 'Env. variable is required',
  notFound: 'Not found',
  /** 503 with Retry-After while the database cannot be reached (restarting, failing over). */
  serviceUnavailable: 'The service is briefly unavailable. Please try again in a few seconds.',
  forbidden: 'Forbidden',
  unauthorized: 'Unauthorized',
  validationFailed: 'Validation failed',
  fieldRequired: 'This field is required',
  fieldEmail: 'This field must be a valid email address',
  /** 422: PostgreSQL text cannot hold the NUL character (U+0000). */
  fieldNulCharacter: 'This field must not contain the NUL character',
  fieldMaxLength: 'This field must be at most ${max} characters',
} as const;
export type MessageKey = keyof typeof MESSAGES;
