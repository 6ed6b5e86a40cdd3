import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { MESSAGES, type ErrorResponse } from '@pathology/contract';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../db/unavailable.ts';
import { HttpError } from './http-error.ts';

/**
 * Turns every failure into the API's error shape: `{ message }`, or `{ message, errors }`
 * with one message per field for invalid input (422). Internal details never reach the caller.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler<FastifyError | HttpError>((error, request, reply) => {
    if (error instanceof HttpError) {
      const body: ErrorResponse = { message: error.message, ...(error.errors ? { errors: error.errors } : {}) };
      return reply
        .status(error.statusCode)
        .headers(error.headers ?? {})
        .send(body);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors: Record<string, string> = {};
      for (const issue of error.validation) {
        const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || error.validationContext || 'body';
        errors[field] ??= issue.message ?? MESSAGES.validationFailed;
      }
      return reply.status(422).send({ message: MESSAGES.validationFailed, errors } satisfies ErrorResponse);
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response does not match its schema');
      return reply.status(500).send({ message: MESSAGES.unexpectedError } satisfies ErrorResponse);
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unreachable');
      return reply
        .status(503)
        .header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS))
        .send({ message: MESSAGES.serviceUnavailable } satisfies ErrorResponse);
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.status(500).send({ message: MESSAGES.unexpectedError } satisfies ErrorResponse);
    }
    // Fastify's own client errors (bad JSON, body too large, unsupported media type) keep their status and text.
    return reply.status(status).send({ message: error.message } satisfies ErrorResponse);
  });
}

const SERVER_PREFIXES = ['/api/', '/iiif/', '/oidc/'];

/**
 * Unknown API paths get a JSON 404. With the web app built, any other GET gets index.html so
 * deep links like /cases/123 load the app, which routes on the client and shows its own not-found page.
 */
export function registerNotFoundHandler(app: FastifyInstance, options: { spaFallback: boolean }): void {
  app.setNotFoundHandler((request, reply) => {
    const isServerPath = SERVER_PREFIXES.some((prefix) => request.url.startsWith(prefix));
    if (options.spaFallback && request.method === 'GET' && !isServerPath) {
      return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
    }
    return reply.status(404).send({ message: MESSAGES.notFound } satisfies ErrorResponse);
  });
}
