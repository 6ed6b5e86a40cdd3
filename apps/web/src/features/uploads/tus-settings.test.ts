import { describe, expect, it } from 'vitest';
import { tusMayRetry } from './tus-settings.ts';

describe('tusMayRetry', () => {
  it('tries a PATCH again after a 409, whose offset moved on under a stored PATCH that lost its answer', () => {
    expect(tusMayRetry(409, 'PATCH')).toBe(true);
  });

  it('takes a 409 to the creation as final: a duplicate file', () => {
    expect(tusMayRetry(409, 'POST')).toBe(false);
  });

  it('tries again what may pass on its own and nothing else', () => {
    for (const status of [0, 423, 502, 503, 504]) expect(tusMayRetry(status, 'PATCH')).toBe(true);
    for (const status of [400, 401, 403, 404, 413, 422, 500]) expect(tusMayRetry(status, 'PATCH')).toBe(false);
  });
});
