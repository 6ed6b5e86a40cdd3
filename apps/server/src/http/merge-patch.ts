export const MERGE_PATCH_CONTENT_TYPE = 'application/merge-patch+json';

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

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
