/** Kinds of request the soak reports apart, each with its own latency goal. */
export const KINDS = ['tile', 'detection tile', 'API read', 'API write', 'upload chunk'] as const;
export type Kind = (typeof KINDS)[number];

/** One answer (or none: status 0) as a client saw it. */
export interface Sample {
  kind: Kind;
  method: string;
  path: string;
  status: number;
  ms: number;
  /** Wall-clock time of the answer (or the failure), ms since the epoch. */
  at: number;
}

/** A time when the server was down on purpose: from the kill to its first ready answer (open while it is down). */
export interface Outage {
  killedAt: number;
  readyAt: number | null;
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((sorted.length * p) / 100) - 1))]!;
}

/** Every answer of the run, and the outages they are judged against. */
export class Recorder {
  readonly samples: Sample[] = [];
  readonly outages: Outage[] = [];
  /** Requests sent and not answered yet, with when they were sent: a stuck one shows in the progress lines. */
  readonly inFlight = new Map<symbol, { path: string; since: number }>();

  record(sample: Sample): void {
    this.samples.push(sample);
  }

  /** Whether a moment falls inside an outage (an open one reaches to now). */
  duringOutage(at: number): boolean {
    return this.outages.some((outage) => at >= outage.killedAt && at <= (outage.readyAt ?? Number.POSITIVE_INFINITY));
  }

  /** Answers outside every outage: what the goals judge. */
  judged(): Sample[] {
    return this.samples.filter((sample) => !this.duringOutage(sample.at));
  }
}

/** Count of answers per status, ascending ("0" is no answer at all). */
export function statusCounts(samples: readonly Sample[]): [number, number][] {
  const counts = new Map<number, number>();
  for (const sample of samples) counts.set(sample.status, (counts.get(sample.status) ?? 0) + 1);
  return [...counts.entries()].sort(([a], [b]) => a - b);
}

export interface KindFigures {
  kind: Kind;
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

/** Latencies per kind of the answers that came (status above 0). */
export function latencyByKind(samples: readonly Sample[]): KindFigures[] {
  return KINDS.map((kind) => {
    const ms = samples
      .filter((sample) => sample.kind === kind && sample.status > 0)
      .map((sample) => sample.ms)
      .sort((a, b) => a - b);
    return {
      kind,
      count: ms.length,
      p50: percentile(ms, 50),
      p95: percentile(ms, 95),
      p99: percentile(ms, 99),
      max: ms.at(-1) ?? Number.NaN,
    };
  });
}

/** Least-squares slope of y over x. */
export function slope(points: readonly { x: number; y: number }[]): number {
  const n = points.length;
  if (n < 2) return Number.NaN;
  const mx = points.reduce((sum, point) => sum + point.x, 0) / n;
  const my = points.reduce((sum, point) => sum + point.y, 0) / n;
  let num = 0;
  let den = 0;
  for (const point of points) {
    num += (point.x - mx) * (point.y - my);
    den += (point.x - mx) ** 2;
  }
  return den === 0 ? Number.NaN : num / den;
}
