import { describe, expect, it } from 'vitest';
import { AuthError, HttpError, ValidationError } from '../api/errors.ts';
import { shouldRetry } from './query-client.ts';

describe('shouldRetry', () => {
  it('never retries auth or validation errors', () => {
    expect(shouldRetry(0, new AuthError())).toBe(false);
    expect(shouldRetry(0, new ValidationError('Bad', { title: 'Title is required' }, 422))).toBe(false);
  });

  it('never retries a lost session (401) or a refusal (403)', () => {
    expect(shouldRetry(0, new HttpError('Unauthorized', 401, undefined))).toBe(false);
    expect(shouldRetry(0, new HttpError('Forbidden', 403, undefined))).toBe(false);
    expect(shouldRetry(0, new HttpError('Too many requests', 429, undefined))).toBe(true);
  });

  it('retries other failures twice', () => {
    const error = new HttpError('Unexpected error', 503, undefined);
    expect([0, 1, 2].map((count) => shouldRetry(count, error))).toEqual([true, true, false]);
  });
});
