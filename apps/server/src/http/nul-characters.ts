import { Stream } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MESSAGES } from '@pathology/contract';
import { HttpError } from './http-error.ts';

/**
 * Paths (`comment`, `query.0.values.1`) of every string in a parsed value that holds a NUL, keys included. Numbers are
 * passed over without a path of their own: a drawing's 100,000 points cost 0.2 s of the event loop when each had one.
 */
export function nulCharacterPaths(value: unknown, path: string[] = []): string[] {
  const found: string[] = [];
  const visit = (inner: unknown) => {
    if (typeof inner === 'string') {
      if (inner.includes('\0')) found.push(path.join('.') || 'body');
      return;
    }
    if (Array.isArray(inner)) {
      for (let index = 0; index < inner.length; index++) {
        const item: unknown = inner[index];
        if (typeof item !== 'string' && (item === null || typeof item !== 'object')) continue;
        path.push(String(index));
        visit(item);
        path.pop();
      }
      return;
    }
    if (!isParsedValue(inner)) return;
    for (const [key, item] of Object.entries(inner)) {
      path.push(key);
      if (key.includes('\0')) found.push(path.join('.'));
      visit(item);
      path.pop();
    }
  };
  visit(value);
  return found;
}

/** A raw upload's body is a stream (or bytes), whose fields are not user text. */
const isParsedValue = (value: unknown): value is object =>
  value != null && typeof value === 'object' && !(value instanceof Stream) && !Buffer.isBuffer(value);

const parts = (request: FastifyRequest) => [request.params, request.query, request.body];

/** 422 naming every field of `value` that holds a NUL; nothing when none does. */
export function refuseNulCharacters(...values: unknown[]): void {
  const paths = values.flatMap((value) => nulCharacterPaths(value));
  if (paths.length === 0) return;
  throw new HttpError(
    422,
    MESSAGES.validationFailed,
    Object.fromEntries(paths.map((path) => [path, MESSAGES.fieldNulCharacter])),
  );
}

/**
 * PostgreSQL cannot store U+0000 in text ("invalid byte sequence 0x00"), so a NUL in any path
 * parameter, query value or JSON body is refused with 422 before any route sees it; routes added
 * later are covered without knowing it.
 */
export function registerNulCharacterCheck(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => refuseNulCharacters(...parts(request)));
}
