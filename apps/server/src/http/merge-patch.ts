import type { FastifyInstance } from 'fastify';

export const MERGE_PATCH_CONTENT_TYPE = 'application/merge-patch+json';

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** Accepts `application/merge-patch+json` bodies (RFC 7396) as JSON on every route. */
export function registerMergePatch(app: FastifyInstance): void {
  app.addContentTypeParser(MERGE_PATCH_CONTENT_TYPE, { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, JSON.parse(body as string) as unknown);
    } catch {
      const error = new Error('Body is not valid JSON') as Error & { statusCode: number };
      error.statusCode = 400;
      done(error, undefined);
    }
  });
}

/**
 * RFC 7396: members of the patch replace those of the target, `null` removes a member,
 * objects merge recursively, anything else (arrays included) replaces the whole value.
 */
export function applyMergePatch(target: Json | undefined, patch: Json): Json {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch;
  const result: { [key: string]: Json } =
    target !== null && typeof target === 'object' && !Array.isArray(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = applyMergePatch(result[key], value);
  }
  return result;
}
