import { describe, expect, it } from 'vitest';
import { FailedAttemptLimiter } from './rate-limit.ts';

describe('FailedAttemptLimiter', () => {
  const MINUTE = 60_000;

  function limiter() {
    let now = 0;
    const instance = new FailedAttemptLimiter({ maxFailures: 3, windowMs: 15 * MINUTE, now: () => now });
    return { instance, advance: (ms: number) => (now += ms) };
  }

  it('allows attempts until the limit, then says how long to wait', () => {
    const { instance, advance } = limiter();
    for (let i = 0; i < 3; i++) {
      expect(instance.retryAfterMs('a@example.test')).toBe(0);
      instance.recordFailure('a@example.test');
      advance(MINUTE);
    }
    // The oldest of the three failures was 3 minutes ago; it leaves the window in 12.
    expect(instance.retryAfterMs('a@example.test')).toBe(12 * MINUTE);
    expect(instance.retryAfterMs('b@example.test')).toBe(0);
    advance(12 * MINUTE);
    expect(instance.retryAfterMs('a@example.test')).toBe(0);
  });

  it('forgets the failures of a key after a success', () => {
    const { instance } = limiter();
    for (let i = 0; i < 3; i++) instance.recordFailure('a@example.test');
    instance.reset('a@example.test');
    expect(instance.retryAfterMs('a@example.test')).toBe(0);
  });
});
