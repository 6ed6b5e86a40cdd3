import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';

/**
 * The one test command: unit and integration tests (real PostgreSQL) and the browser tests (real server, real
 * Chromium), side by side. Ends with `N passed, M failed` over both.
 *
 * The two suites run at the same time because the browser tests mostly wait (for the browser, the server's
 * conversions, polls) while the unit tests keep the cores busy: one after the other they took 40 minutes of a
 * 2-core machine, most of the browser half with a core idle. Each has its own PostgreSQL, data folder and ports.
 * `--unit` runs the unit and integration suite alone; `--serial` runs the two one after the other.
 */
interface Suite {
  name: string;
  tag: string;
  args: string[];
  before: string[][];
}

const suites: Suite[] = [
  { name: 'unit and integration', tag: 'unit', args: [], before: [] },
  // The browser tests drive the built web app, served by the real server.
  { name: 'browser (e2e)', tag: 'e2e', args: ['--config', 'e2e/vitest.config.ts'], before: [['npm', 'run', 'build']] },
];
const options = new Set(process.argv.slice(2));
const resultsDir = path.resolve('test-results');
fs.mkdirSync(resultsDir, { recursive: true });

interface Tally {
  passed: number;
  failed: number;
}

/** Runs a command, each line of its output prefixed with the suite's tag so the two suites' lines stay apart. */
function run(tag: string, command: string, args: string[]): Promise<number | null> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
      process.stdout.write(`[${tag}] ${line}\n`);
    });
  }
  return new Promise((resolve) => child.on('close', (code) => resolve(code)));
}

async function runSuite(suite: Suite): Promise<Tally> {
  const report = path.join(resultsDir, `${suite.name.replace(/\W+/g, '-')}.json`);
  fs.rmSync(report, { force: true });
  process.stdout.write(`\n=== ${suite.name} tests ===\n`);
  for (const [command, ...args] of suite.before) {
    if ((await run(suite.tag, command!, args)) !== 0) return { passed: 0, failed: 1 };
  }
  const status = await run(suite.tag, 'npx', [
    'vitest',
    'run',
    ...suite.args,
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
  ]);
  if (!fs.existsSync(report)) return { passed: 0, failed: 1 };
  const result = JSON.parse(fs.readFileSync(report, 'utf8')) as { numPassedTests: number; numFailedTests: number };
  // A suite that crashed outside a test (setup, collection) reports no failed test but still failed.
  const crashed = status !== 0 && result.numFailedTests === 0 ? 1 : 0;
  process.stdout.write(`\n=== ${suite.name}: ${result.numPassedTests} passed, ${result.numFailedTests} failed ===\n`);
  return { passed: result.numPassedTests, failed: result.numFailedTests + crashed };
}

const chosen = options.has('--unit') ? suites.filter((suite) => suite.args.length === 0) : suites;
let tallies: Tally[];
if (options.has('--serial')) {
  tallies = [];
  for (const suite of chosen) tallies.push(await runSuite(suite));
} else {
  tallies = await Promise.all(chosen.map(runSuite));
}
const passed = tallies.reduce((sum, tally) => sum + tally.passed, 0);
const failed = tallies.reduce((sum, tally) => sum + tally.failed, 0);
process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
process.exit(failed > 0 ? 1 : 0);
