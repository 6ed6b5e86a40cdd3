/**
 * The error shapes the UI tells apart (spec part 1 §8, part 3 §8). The client rule "404 is an auth error" is the
 * web's: the server answers 404 for objects the caller may not see, and the UI treats that like a lost session.
 */

import { MESSAGES } from '@pathology/contract';

/** Message of any failure that carries no usable server message. */
export const UNEXPECTED_ERROR = MESSAGES.unexpectedError;
/** Message of {@link AuthError}, as the spec names it. */
export const AUTH_ERROR = 'auth-error';

/** A response whose body had an `errors` list: one message per field, for forms to show next to inputs. */
export class ValidationError extends Error {
  override readonly name = 'ValidationError';
  readonly status: number;
  readonly errors: Readonly<Record<string, string>>;

  constructor(message: string, errors: Record<string, string>, status: number) {
    super(message);
    this.errors = errors;
    this.status = status;
  }
}

/** HTTP 404 on any call. */
export class AuthError extends Error {
  override readonly name = 'AuthError';
  readonly status: number;

  constructor(status = 404) {
    super(AUTH_ERROR);
    this.status = status;
  }
}

/** Any other non-2xx response; `message` is the server's or {@link UNEXPECTED_ERROR}. */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  readonly status: number;
  /** Parsed JSON body (or raw text) so callers can still read a structured answer, e.g. a 503 health report. */
  readonly body: unknown;

  constructor(message: string, status: number, body: unknown) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

/** The request took longer than the client's limit (20 s by default) and was aborted. */
export class TimeoutError extends Error {
  override readonly name = 'TimeoutError';
  readonly timeoutMs: number;

  constructor(timeoutMs: number) {
    super(`Request timed out after ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function firstMessage(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(firstMessage).find((message) => message !== undefined);
  if (isRecord(value) && typeof value.message === 'string') return value.message;
  return undefined;
}

/**
 * Normalises an `errors` value to field → message. Accepts the documented `{ field: message }` and, defensively,
 * `{ field: [messages] }` and `[{ field | path, message }]`. Returns undefined when nothing usable is in it.
 */
export function toFieldErrors(value: unknown): Record<string, string> | undefined {
  const result: Record<string, string> = {};
  if (Array.isArray(value)) {
    for (const item of value) {
      if (!isRecord(item)) continue;
      const rawField = item.field ?? item.path;
      const field = Array.isArray(rawField) ? rawField.join('.') : rawField;
      const message = firstMessage(item);
      if (typeof field === 'string' && message !== undefined) result[field] = message;
    }
  } else if (isRecord(value)) {
    for (const [field, entry] of Object.entries(value)) {
      const message = firstMessage(entry);
      if (message !== undefined) result[field] = message;
    }
  }
  return Object.keys(result).length > 0 ? result : undefined;
}

/** Maps a failed response's status and (already parsed) body to the error the UI expects. */
export function toApiError(status: number, body: unknown): Error {
  const serverMessage =
    isRecord(body) && typeof body.message === 'string' && body.message.trim() !== '' ? body.message : undefined;
  const fieldErrors = isRecord(body) ? toFieldErrors(body.errors) : undefined;
  if (fieldErrors) return new ValidationError(serverMessage ?? MESSAGES.validationFailed, fieldErrors, status);
  if (status === 404) return new AuthError(status);
  return new HttpError(serverMessage ?? UNEXPECTED_ERROR, status, body);
}
