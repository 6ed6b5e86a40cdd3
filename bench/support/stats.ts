export interface Summary {
  runs: number;
  median: number;
  p95: number;
  max: number;
}

/** Median, 95th percentile (nearest rank) and maximum of a list of durations. */
export function summarize(samples: readonly number[]): Summary {
  if (samples.length === 0) throw new Error('no samples');
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  const p95 = sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)]!;
  return { runs: sorted.length, median, p95, max: sorted.at(-1)! };
}

/** Runs `task` `warmup` times untimed, then `runs` times timed; returns the durations in milliseconds. */
export async function timeRuns(
  task: () => Promise<void>,
  options: { warmup: number; runs: number },
): Promise<number[]> {
  for (let i = 0; i < options.warmup; i += 1) await task();
  const durations: number[] = [];
  for (let i = 0; i < options.runs; i += 1) {
    const start = performance.now();
    await task();
    durations.push(performance.now() - start);
  }
  return durations;
}

export const ms = (value: number) => value.toFixed(1);
