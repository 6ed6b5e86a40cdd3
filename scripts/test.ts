import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {
  crashedOutsideTests,
  failureLines,
  listJourneys,
  measuredSeconds,
  planShards,
  readReport,
  runShard,
  tally,
  type ShardRun,
  type VitestReport,
} from './journey-shards.ts';
import { machineBusySeconds, phaseLine } from './machine-cpu.ts';
import { ensureWebBuild } from './web-build.js';

/**
 * The one test command: unit and integration tests (real PostgreSQL), then the browser tests (real server, real
 * Chromium) in E2E_SHARDS concurrent shards (default 2). Ends with `N passed, M failed` over both.
 * `npm test -- --unit` runs only the first, `npm test -- --e2e` only the second.
 */

/** Prints how long a phase took and the machine's CPU over it, in the form .ci/run gathers (`phaseLine`). */
async function timed<T>(phase: string, step: () => T | Promise<T>): Promise<T> {
  const started = performance.now();
  const busyBefore = machineBusySeconds();
  const result = await step();
  const busyAfter = machineBusySeconds();
  const busy = busyBefore == null || busyAfter == null ? null : busyAfter - busyBefore;
  process.stdout.write(`${phaseLine(phase, (performance.now() - started) / 1000, busy)}\n`);
  return result;
}

const only = process.argv[2];
const root = process.cwd();
const resultsDir = path.resolve('test-results');
fs.mkdirSync(resultsDir, { recursive: true });

let passed = 0;
let failed = 0;
const failures: string[] = [];
function count(runs: { report: VitestReport | null; exit: number | string | null }[], label: string) {
  const result = tally(runs);
  passed += result.passed;
  failed += result.failed;
  failures.push(
    ...failureLines(
      root,
      runs.flatMap(({ report }) => (report === null ? [] : [report])),
    ),
  );
  for (const [index, run] of runs.entries()) {
    if (crashedOutsideTests(run))
      failures.push(
        `FAILED ${label}${runs.length > 1 ? ` ${index + 1}` : ''}: exit ${String(run.exit)} outside its tests`,
      );
  }
}

if (only !== '--e2e') {
  process.stdout.write(`\n=== unit and integration tests ===\n`);
  const report = path.join(resultsDir, 'unit-and-integration.json');
  fs.rmSync(report, { force: true });
  const run = await timed('unit+integration', () =>
    spawnSync('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], {
      stdio: 'inherit',
    }),
  );
  count([{ report: readReport(report), exit: run.status ?? run.signal }], 'unit and integration run');
}

if (only !== '--unit') {
  process.stdout.write(`\n=== browser (e2e) tests ===\n`);
  // The browser tests drive the built web app, served by the real server. Built only when its inputs changed since
  // the last build (as `npm start` does): .ci/run builds it beside lint and typecheck, where a core is free.
  const built = await timed('build', () => ensureWebBuild(root));
  if (!built) {
    failed += 1;
    failures.push('FAILED npm run build');
  } else await journeys();
}

/**
 * Two shards halve the journeys' wall time on two cores: most of a journey is waiting (the server, conversions,
 * Chromium's rendering). An app started elsewhere (E2E_BASE_URL) is one server and its data: one shard.
 */
async function journeys() {
  const durations = JSON.parse(fs.readFileSync('e2e/durations.json', 'utf8')) as Record<string, number>;
  const shardCount = process.env.E2E_BASE_URL ? 1 : Number(process.env.E2E_SHARDS ?? 2);
  if (!Number.isInteger(shardCount) || shardCount < 1)
    throw new Error(`E2E_SHARDS must be 1 or more, not ${shardCount}`);
  const plan = planShards(listJourneys(root), durations, shardCount);
  for (const [index, shard] of plan.entries()) {
    process.stdout.write(
      `shard ${index + 1}/${plan.length}: ${shard.files.length} files, about ${shard.seconds} s: ${shard.files.join(' ')}\n`,
    );
  }
  const printWhole = (index: number) => (run: ShardRun) => {
    process.stdout.write(`\n--- journeys shard ${index + 1}/${plan.length} (exit ${String(run.exit)}) ---\n`);
    process.stdout.write(fs.readFileSync(run.logFile));
    process.stdout.write(`--- end of shard ${index + 1}/${plan.length}; its server log and screenshots are in `);
    process.stdout.write(`${path.relative(root, path.dirname(run.logFile))} ---\n`);
  };
  const runs = await timed('journeys', () =>
    Promise.all(
      plan.map((shard, index) =>
        runShard(root, shard.files, path.join(resultsDir, `journeys-${index + 1}`), printWhole(index)),
      ),
    ),
  );
  const results = runs.map((run) => ({ report: readReport(run.reportFile), exit: run.exit }));
  count(results, 'journeys shard');
  const measured = measuredSeconds(
    root,
    results.flatMap(({ report }) => (report === null ? [] : [report])),
  );
  // To refresh the shards' balance: copy it over e2e/durations.json after a run on the CI machine.
  fs.writeFileSync(path.join(resultsDir, 'journey-durations.json'), `${JSON.stringify(measured, null, 2)}\n`);
}

process.stdout.write(`\n${failures.map((line) => `${line}\n`).join('')}${passed} passed, ${failed} failed\n`);
process.exit(failed > 0 ? 1 : 0);
