import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MAX_JSON_DEPTH, MESSAGES } from '@pathology/contract';
import { HttpError } from './http-error.ts';
import { MERGE_PATCH_CONTENT_TYPE } from './merge-patch.ts';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACKET = 0x5d;
const CLOSE_BRACE = 0x7d;

/**
 * Follows the nesting of arrays and objects in JSON given piece by piece (bytes cut anywhere: quotes, backslashes
 * and brackets are ASCII, never part of a longer UTF-8 character), in one pass with no recursion and no parse, so a
 * 5 KB `[[[…]]]` or a 2 GB upload is measured without touching the stack.
 */
export class JsonNesting {
  private depth = 0;
  private inString = false;
  private escaped = false;

  constructor(private readonly limit: number) {}

  /** Reads the next piece; true once the nesting went deeper than the limit. */
  deeperThanLimit(bytes: Uint8Array): boolean {
    let { depth, inString, escaped } = this;
    for (let index = 0; index < bytes.length; index++) {
      const byte = bytes[index]!;
      if (inString) {
        if (escaped) escaped = false;
        else if (byte === BACKSLASH) escaped = true;
        else if (byte === QUOTE) inString = false;
      } else if (byte === QUOTE) inString = true;
      else if (byte === OPEN_BRACKET || byte === OPEN_BRACE) {
        if (++depth > this.limit) return true;
      } else if (byte === CLOSE_BRACKET || byte === CLOSE_BRACE) depth--;
    }
    Object.assign(this, { depth, inString, escaped });
    return false;
  }
}

/** Whether arrays and objects in JSON text nest deeper than `limit`. */
export function nestsDeeperThan(text: string, limit: number): boolean {
  return new JsonNesting(limit).deeperThanLimit(Buffer.from(text));
}

/** The content types whose bodies are parsed as JSON. */
export const JSON_BODY_TYPES = ['application/json', MERGE_PATCH_CONTENT_TYPE];

type Done = (error: Error | null, body?: unknown) => void;

/**
 * Every JSON body (`application/json` and merge patches) passes here before anything walks it: the
 * NUL-character hook, zod, merge patches and serializers recurse, and a body nested thousands deep
 * would overflow the stack (a 500) in whichever ran first. Past the limit it is a 422; below it,
 * Fastify's own parser (with its prototype-poisoning guard) does the parsing.
 */
export function jsonBodyParser(app: FastifyInstance): (request: FastifyRequest, text: string, done: Done) => void {
  const parse = app.getDefaultJsonParser('error', 'error');
  return (request, text, done) => {
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
      done(HttpError.validation({ body: MESSAGES.bodyNestedTooDeep }), undefined);
      return;
    }
    void parse(request, text, done);
  };
}

export function registerJsonBodies(app: FastifyInstance): void {
  const parse = jsonBodyParser(app);
  app.addContentTypeParser(JSON_BODY_TYPES, { parseAs: 'string' }, (request: FastifyRequest, body, done) =>
    parse(request, String(body), done),
  );
}
