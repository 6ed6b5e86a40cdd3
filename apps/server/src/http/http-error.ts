import { MESSAGES } from '@pathology/contract';

/** An error whose status and message are meant for the caller. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: Record<string, string>,
    /** Sent with the answer, e.g. Retry-After of a 503. */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }

  static notFound(message: string = MESSAGES.notFound): HttpError {
    return new HttpError(404, message);
  }

  static forbidden(message: string = MESSAGES.forbidden): HttpError {
    return new HttpError(403, message);
  }

  static unauthorized(message: string = MESSAGES.unauthorized): HttpError {
    return new HttpError(401, message);
  }

  static conflict(message: string): HttpError {
    return new HttpError(409, message);
  }

  static validation(errors: Record<string, string>, message: string = MESSAGES.validationFailed): HttpError {
    return new HttpError(422, message, errors);
  }
}
