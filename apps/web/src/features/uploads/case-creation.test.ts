import { describe, expect, it, vi } from 'vitest';
import { AuthError, HttpError, TimeoutError, UNEXPECTED_ERROR, ValidationError } from '../../api/client.ts';
import { createCaseRetrying, isTransientFailure } from './case-creation.ts';

/** The API client's failure when the server does not answer (connection refused while it restarts). */
const noAnswer = () => new Error(UNEXPECTED_ERROR, { cause: new TypeError('Failed to fetch') });

function deps(outcomes: (string | Error)[], found: (string | null | Error)[] = []) {
  const waits: number[] = [];
  return {
    waits,
    create: vi.fn(async () => {
      const next = outcomes.shift();
      if (next instanceof Error || next === undefined) throw next ?? new Error('no more outcomes');
      return next;
    }),
    find: vi.fn(async () => {
      const next = found.shift() ?? null;
      if (next instanceof Error) throw next;
      return next;
    }),
    delays: [1000, 3000, 5000],
    wait: async (ms: number) => {
      waits.push(ms);
    },
  };
}

describe('isTransientFailure', () => {
  it('is true for no answer, a timeout and a gateway that found no server, false for what the server decided', () => {
    expect(isTransientFailure(noAnswer())).toBe(true);
    expect(isTransientFailure(new TimeoutError(20_000))).toBe(true);
    for (const status of [502, 503, 504]) expect(isTransientFailure(new HttpError('x', status, null))).toBe(true);
    expect(isTransientFailure(new HttpError(UNEXPECTED_ERROR, 500, null))).toBe(false);
    expect(isTransientFailure(new HttpError('Forbidden', 403, null))).toBe(false);
    expect(isTransientFailure(new ValidationError(UNEXPECTED_ERROR, {}, 422))).toBe(false);
    expect(isTransientFailure(new AuthError())).toBe(false);
  });
});

describe('createCaseRetrying', () => {
  it('tries again while the server restarts, and creates the case once it answers', async () => {
    const d = deps([noAnswer(), new HttpError('Service Unavailable', 503, null), 'case-1']);
    await expect(createCaseRetrying('C-1', 'org', d)).resolves.toBe('case-1');
    expect(d.create).toHaveBeenCalledTimes(3);
    expect(d.waits).toEqual([1000, 3000]);
  });

  it('takes the case an unanswered request did create, instead of creating a second one', async () => {
    const d = deps([noAnswer()], ['case-made-before-the-cut']);
    await expect(createCaseRetrying('C-1', 'org', d)).resolves.toBe('case-made-before-the-cut');
    expect(d.create).toHaveBeenCalledTimes(1);
    expect(d.find).toHaveBeenCalledWith('C-1', 'org');
  });

  it('keeps waiting when the search fails too, while the server is still down', async () => {
    const d = deps([noAnswer(), 'case-1'], [noAnswer(), null]);
    await expect(createCaseRetrying('C-1', 'org', d)).resolves.toBe('case-1');
    expect(d.waits).toEqual([1000, 3000]);
  });

  it('fails at once on what the server refused, and after the last wait on a server that stays away', async () => {
    const refused = new HttpError('Forbidden', 403, null);
    const once = deps([refused]);
    await expect(createCaseRetrying('C-1', 'org', once)).rejects.toBe(refused);
    expect(once.waits).toEqual([]);
    const away = deps([noAnswer(), noAnswer(), noAnswer(), noAnswer()]);
    await expect(createCaseRetrying('C-1', 'org', away)).rejects.toThrow(UNEXPECTED_ERROR);
    expect(away.waits).toEqual([1000, 3000, 5000]);
  });
});
