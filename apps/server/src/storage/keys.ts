import { BlobKeyError, BlobRangeError, type BlobRange } from './blob-store.ts';

/** S3's own limit on a key, so a key valid here is valid in every store. */
export const MAX_KEY_LENGTH = 1024;
/**
 * Filesystems allow 255 bytes per name; the filesystem store appends a temporary suffix while writing, so a
 * segment stays well below that.
 */
export const MAX_SEGMENT_LENGTH = 200;

// Only characters that mean the same thing in a URL, a POSIX path and an S3 key; no '\\', ':', '~' or NUL.
const KEY_CHARACTERS = /^[A-Za-z0-9._/-]*$/;

function fail(value: string, reason: string): never {
  const shown = value.length > 80 ? `${value.slice(0, 80)}…` : value;
  throw new BlobKeyError(`invalid blob key ${JSON.stringify(shown)}: ${reason}`);
}

function checkCommon(value: string): void {
  if (value.length > MAX_KEY_LENGTH) fail(value, `longer than ${MAX_KEY_LENGTH} characters`);
  if (!KEY_CHARACTERS.test(value)) fail(value, 'only letters, digits and . _ / - are allowed');
  if (value.startsWith('/')) fail(value, 'must not start with /');
}

function checkSegments(value: string, segments: string[]): void {
  for (const segment of segments) {
    if (segment === '') fail(value, 'empty path segment');
    // '.' is rejected too: the filesystem would fold it away and S3 would not, so the stores would disagree.
    if (segment === '.' || segment === '..') fail(value, `"${segment}" segment`);
    if (segment.length > MAX_SEGMENT_LENGTH) fail(value, `segment longer than ${MAX_SEGMENT_LENGTH} characters`);
  }
}

/** Throws `BlobKeyError` unless `key` is a safe key such as `images/42/original.svs`. */
export function assertBlobKey(key: string): void {
  if (typeof key !== 'string' || key === '') fail(String(key), 'empty');
  checkCommon(key);
  checkSegments(key, key.split('/'));
}

/** Like `assertBlobKey`, but '' (everything) and a trailing '/' or partial last segment are allowed. */
export function assertBlobPrefix(prefix: string): void {
  if (typeof prefix !== 'string') fail(String(prefix), 'not a string');
  if (prefix === '') return;
  checkCommon(prefix);
  const segments = prefix.split('/');
  const last = segments.pop() ?? '';
  checkSegments(prefix, segments);
  if (last === '..' || last.length > MAX_SEGMENT_LENGTH) fail(prefix, 'invalid last segment');
}

/** True when `key` is valid; used to skip the filesystem store's temporary files when listing. */
export function isBlobKey(key: string): boolean {
  try {
    assertBlobKey(key);
    return true;
  } catch {
    return false;
  }
}

export function assertBlobRange(range: BlobRange): void {
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) {
    throw new BlobRangeError(`invalid byte range ${start}-${end}`);
  }
}
