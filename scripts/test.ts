import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The one test command: unit and integration tests (real PostgreSQL), then the browser tests
 * (real server, real Chromium). Ends with `N passed, M failed` over both.
 */
const suites = [
  { name: 'unit and integration', phase: 'unit+integration', args: [] as string[], before: [] as string[][] },
  // The browser tests drive the built web app, served by the real server.
  {
    name: 'browser (e2e)',
    phase: 'journeys',
    args: ['--config', 'e2e/vitest.config.ts'],
    before: [['npm', 'run', 'build']],
  },
];
/** Prints how long a phase took, in the form .ci/run gathers ("phase NAME: N s"). */
function timed<T>(phase: string, step: () => T): T {
  const started = performance.now();
  const result = step();
  process.stdout.write(`phase ${phase}: ${Math.round((performance.now() - started) / 1000)} s\n`);
  return result;
}
const only = process.argv[2];
const resultsDir = path.resolve('test-results');
fs.mkdirSync(resultsDir, { recursive: true });

let passed = 0;
let failed = 0;
for (const suite of suites) {
  if (only === '--unit' && suite.args.length > 0) continue;
  const report = path.join(resultsDir, `${suite.name.replace(/\W+/g, '-')}.json`);
  fs.rmSync(report, { force: true });
  process.stdout.write(`\n=== ${suite.name} tests ===\n`);
  const prepared = suite.before.every(
    ([command, ...args]) => timed('build', () => spawnSync(command!, args, { stdio: 'inherit' })).status === 0,
  );
  if (!prepared) {
    failed += 1;
    continue;
  }
  const run = timed(suite.phase, () =>
    spawnSync(
      'npx',
      ['vitest', 'run', ...suite.args, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
      { stdio: 'inherit' },
    ),
  );
  if (fs.existsSync(report)) {
    const result = JSON.parse(fs.readFileSync(report, 'utf8')) as { numPassedTests: number; numFailedTests: number };
    passed += result.numPassedTests;
    failed += result.numFailedTests;
    // A suite that crashed outside a test (setup, collection) reports no failed test but still failed.
    if (run.status !== 0 && result.numFailedTests === 0) failed += 1;
  } else {
    failed += 1;
  }
}
process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
process.exit(failed > 0 ? 1 : 0);
