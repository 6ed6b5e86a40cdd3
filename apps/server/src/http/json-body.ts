import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MAX_JSON_DEPTH, MESSAGES } from '@pathology/contract';
import { HttpError } from './http-error.ts';
import { MERGE_PATCH_CONTENT_TYPE } from './merge-patch.ts';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPENERS = new Set([0x5b, 0x7b]); // [ {
const CLOSERS = new Set([0x5d, 0x7d]); // ] }

/**
 * Whether arrays and objects in JSON text nest deeper than `limit`, read as text in one pass
 * (no recursion, no parse), so a 5 KB `[[[…]]]` is measured without touching the stack.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === BACKSLASH) index++;
      else if (char === QUOTE) inString = false;
    } else if (char === QUOTE) inString = true;
    else if (OPENERS.has(char)) {
      if (++depth > limit) return true;
    } else if (CLOSERS.has(char)) depth--;
  }
  return false;
}

/**
 * Every JSON body (`application/json` and merge patches) passes here before anything walks it: the
 * NUL-character hook, zod, merge patches and serializers recurse, and a body nested thousands deep
 * would overflow the stack (a 500) in whichever ran first. Past the limit it is a 422; below it,
 * Fastify's own parser (with its prototype-poisoning guard) does the parsing.
 */
export function registerJsonBodies(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser(
    ['application/json', MERGE_PATCH_CONTENT_TYPE],
    { parseAs: 'string' },
    (request: FastifyRequest, body: string | Buffer, done) => {
      const text = String(body);
      if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
        done(HttpError.validation({ body: MESSAGES.bodyNestedTooDeep }), undefined);
        return;
      }
      void parse(request, text, done);
    },
  );
}
