import type { ChildProcess } from 'node:child_process';

/** Wait before the first restart after a death. */
const FIRST_DELAY_MS = 1_000;
/** Longest wait between two attempts; the wait doubles up to it. */
const MAX_DELAY_MS = 10_000;

interface SupervisorOptions {
  /** Starts the process and resolves once it serves. */
  start: () => Promise<ChildProcess>;
  onDown?: (code: number | null, signal: string | null) => void;
  onUp?: () => void;
  onRetryFailed?: (error: unknown) => void;
}

/**
 * Keeps a child process running: when it exits on its own it is started again, after a wait that
 * doubles on every failed attempt (capped), so a cluster that cannot start is not hammered.
 * `begin` makes the first start (its failure is the caller's); `end` stops watching before a
 * deliberate shutdown, so that exit is not taken for a crash.
 */
export function superviseRestarts(options: SupervisorOptions) {
  let ended = false;
  let timer: NodeJS.Timeout | undefined;

  const watch = (child: ChildProcess) => {
    child.once('exit', (code, signal) => {
      if (ended) return;
      options.onDown?.(code, signal);
      schedule(FIRST_DELAY_MS);
    });
  };

  const schedule = (delayMs: number) => {
    timer = setTimeout(() => {
      if (ended) return;
      options.start().then(
        (child) => {
          if (ended) return;
          watch(child);
          options.onUp?.();
        },
        (error: unknown) => {
          options.onRetryFailed?.(error);
          schedule(Math.min(delayMs * 2, MAX_DELAY_MS));
        },
      );
    }, delayMs);
  };

  return {
    async begin(): Promise<void> {
      watch(await options.start());
    },
    end(): void {
      ended = true;
      clearTimeout(timer);
    },
  };
}
