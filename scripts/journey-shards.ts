import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The browser journeys in concurrent shards: each shard is a vitest run of its own with its own app server (data
 * folder, ports, embedded PostgreSQL; see e2e/support/app-server.ts) and results folder, so a journey that restarts
 * its server disturbs no other shard. Files go to the shards by their measured seconds (e2e/durations.json).
 */

/** Seconds assumed for a journey file that e2e/durations.json does not list yet (about a mid-sized file). */
export const DEFAULT_JOURNEY_SECONDS = 45;

export interface ShardPlan {
  files: string[];
  /** The planned seconds of its files. */
  seconds: number;
}

/** The journey files, relative to the repository root (as e2e/vitest.config.ts includes them), sorted. */
export function listJourneys(root: string): string[] {
  return fs
    .readdirSync(path.join(root, 'e2e'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.e2e.test.ts'))
    .map((file) => path.posix.join('e2e', file.split(path.sep).join('/')))
    .sort();
}

/**
 * Greedy longest-first: each file, longest first, goes to the shard with the fewest planned seconds so far.
 * Deterministic (ties by name and by shard order), so a run can be reproduced from its plan.
 */
export function planShards(
  files: readonly string[],
  durations: Readonly<Record<string, number>>,
  count: number,
  defaultSeconds = DEFAULT_JOURNEY_SECONDS,
): ShardPlan[] {
  const shards: ShardPlan[] = Array.from({ length: count }, () => ({ files: [], seconds: 0 }));
  const seconds = (file: string) => durations[file] ?? defaultSeconds;
  const longestFirst = [...files].sort((a, b) => seconds(b) - seconds(a) || a.localeCompare(b));
  for (const file of longestFirst) {
    const lightest = shards.reduce((best, shard) => (shard.seconds < best.seconds ? shard : best));
    lightest.files.push(file);
    lightest.seconds += seconds(file);
  }
  return shards.filter((shard) => shard.files.length > 0);
}

/** The parts of vitest's JSON report the tally and the durations table read. */
export interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  testResults: {
    name: string;
    startTime: number;
    endTime: number;
    /** Why the file failed outside its tests (a crash in setup or collection), when it did. */
    message?: string;
    assertionResults?: { fullName: string; status: string; failureMessages?: string[] }[];
  }[];
}

/** Null when the run wrote no report, or a broken one (killed while writing it). */
export function readReport(file: string): VitestReport | null {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as VitestReport;
  } catch {
    return null;
  }
}

/** A run that ended badly with no failed test to show for it: killed, or broken in setup or collection. */
export function crashedOutsideTests({ report, exit }: { report: VitestReport | null; exit: number | string | null }) {
  return report === null || (exit !== 0 && report.numFailedTests === 0);
}

/**
 * `N passed, M failed` over runs: a run that crashed outside a test (setup, collection, a killed shard) counts as
 * one failure, with or without a report.
 */
export function tally(runs: readonly { report: VitestReport | null; exit: number | string | null }[]): {
  passed: number;
  failed: number;
} {
  let passed = 0;
  let failed = 0;
  for (const { report, exit } of runs) {
    passed += report?.numPassedTests ?? 0;
    failed += report?.numFailedTests ?? 0;
    if (crashedOutsideTests({ report, exit })) failed += 1;
  }
  return { passed, failed };
}

/**
 * One line per failed test (file, name and the first line of its error), and per file that failed outside its
 * tests: printed again beside the tally, where CI's tail of the output shows them.
 */
export function failureLines(root: string, reports: readonly VitestReport[]): string[] {
  const firstLine = (text: string | undefined) => (text ?? '').trim().split('\n')[0]!.slice(0, 300);
  return reports.flatMap((report) =>
    report.testResults.flatMap((file) => {
      const name = path.relative(root, file.name).split(path.sep).join('/');
      const failed = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
      if (failed.length === 0 && file.message) return [`FAILED ${name}: ${firstLine(file.message)}`];
      return failed.map((test) => `FAILED ${name} > ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    }),
  );
}

/** Each file's seconds in these reports, keyed as e2e/durations.json keys them. */
export function measuredSeconds(root: string, reports: readonly VitestReport[]): Record<string, number> {
  const entries = reports
    .flatMap((report) => report.testResults)
    .map(({ name, startTime, endTime }) => {
      const file = path.relative(root, name).split(path.sep).join('/');
      return [file, Math.round((endTime - startTime) / 1000)] as const;
    })
    .sort(([a], [b]) => a.localeCompare(b));
  return Object.fromEntries(entries);
}

export interface ShardRun {
  /** vitest's exit code, or the signal that ended it. */
  exit: number | string | null;
  /** Everything the shard printed, stdout and stderr as they came. */
  logFile: string;
  reportFile: string;
}

/**
 * Runs one shard's files in a vitest process whose output goes to a log file, not the terminal: shards run side by
 * side, and their lines interleaved would be unreadable. `onEnd` gets the run when the process has ended.
 */
export function runShard(
  root: string,
  files: readonly string[],
  resultsDir: string,
  onEnd: (run: ShardRun) => void,
): Promise<ShardRun> {
  fs.rmSync(resultsDir, { recursive: true, force: true });
  fs.mkdirSync(resultsDir, { recursive: true });
  const logFile = path.join(resultsDir, 'vitest.log');
  const reportFile = path.join(resultsDir, 'report.json');
  const log = fs.openSync(logFile, 'w');
  const child = spawn(
    'npx',
    [
      'vitest',
      'run',
      '--config',
      'e2e/vitest.config.ts',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${reportFile}`,
      ...files,
    ],
    {
      cwd: root,
      // Colours as they would be in the terminal the log is printed to.
      env: { ...process.env, E2E_RESULTS_DIR: resultsDir, ...(process.stdout.isTTY ? { FORCE_COLOR: '1' } : {}) },
      stdio: ['ignore', log, log],
    },
  );
  return new Promise((resolve) => {
    let ended = false;
    // A failed spawn may report both an error and an exit.
    const end = (exit: number | string | null) => {
      if (ended) return;
      ended = true;
      fs.closeSync(log);
      const run = { exit, logFile, reportFile };
      onEnd(run);
      resolve(run);
    };
    child.once('error', (error) => {
      fs.appendFileSync(logFile, `\nvitest could not be started: ${error.message}\n`);
      end(null);
    });
    child.once('exit', (code, signal) => end(code ?? signal));
  });
}
