export interface FailedAttemptLimiterOptions {
  maxFailures: number;
  windowMs: number;
  now?: () => number;
}

/**
 * Counts failed sign-ins per key (the e-mail address) in a sliding window and refuses further
 * attempts once the limit is reached, so a password cannot be guessed online. In memory: each api
 * instance counts on its own, which still caps guessing at a small multiple of the limit.
 */
export class FailedAttemptLimiter {
  private readonly failures = new Map<string, number[]>();
  private readonly now: () => number;

  constructor(private readonly options: FailedAttemptLimiterOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Milliseconds until the key may try again; 0 when it may try now. */
  retryAfterMs(key: string): number {
    const recent = this.recent(key);
    if (recent.length < this.options.maxFailures) return 0;
    const oldest = recent[recent.length - this.options.maxFailures] ?? this.now();
    return Math.max(0, oldest + this.options.windowMs - this.now());
  }

  recordFailure(key: string): void {
    this.failures.set(key, [...this.recent(key), this.now()]);
    // Keys of long-gone attempts would otherwise accumulate for the life of the process.
    if (this.failures.size > 10_000) this.prune();
  }

  reset(key: string): void {
    this.failures.delete(key);
  }

  private recent(key: string): number[] {
    const since = this.now() - this.options.windowMs;
    return (this.failures.get(key) ?? []).filter((time) => time > since);
  }

  private prune(): void {
    for (const key of [...this.failures.keys()]) {
      const recent = this.recent(key);
      if (recent.length === 0) this.failures.delete(key);
      else this.failures.set(key, recent);
    }
  }
}
