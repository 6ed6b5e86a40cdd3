import { setTimeout as sleep } from 'node:timers/promises';
import type { SoakOptions } from './options.ts';
import type { Recorder } from './stats.ts';

/** One kill -9 of the run and what followed it. */
export interface Kill {
  /** Which process: "the server", "API 1", "worker 1". */
  process: string;
  killedAt: number;
  /** Started again: its first 200 of /api/v1/health/ready; null while down, or when it is left dead. */
  readyAt: number | null;
  restarted: boolean;
  /**
   * Until when after the kill a 5xx is excused: to `readyAt` for the single server; for an API behind nginx, nginx's
   * health interval (it takes the process out of its turns at the first failure and tries it again after that); none
   * for a worker, which answers no user.
   */
  excusedUntil: number;
  /** What the process was doing, for the report (e.g. its conversions under way). */
  note: string;
}

/** What the kills of a run see of it. */
export interface RunClock {
  startedAt: number;
  recorder: Recorder;
  print(line: string): void;
  /** The processes the monitor reads changed (killed, started again): its samples begin a new life. */
  nextLife(): void;
}

/** What the soak runs against: one server (server.ts) or the scaled topology (scaled.ts). */
export interface SoakTarget {
  /** Where the clients go: the server itself, or nginx before the API processes. */
  readonly baseUrl: string;
  readonly databaseUrl: string;
  /** The /metrics of every process running now. */
  metricsUrls(): string[];
  /** Carries out the kills `options` ask for at their times; resolves with them after the last. */
  disrupt(options: SoakOptions, clock: RunClock): Promise<Kill[]>;
}

/** Waits for minute `minute` of the run. */
export const untilMinute = (clock: RunClock, minute: number) =>
  sleep(Math.max(0, clock.startedAt + minute * 60_000 - Date.now()));
