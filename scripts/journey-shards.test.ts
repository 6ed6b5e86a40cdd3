import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_JOURNEY_SECONDS,
  failureLines,
  listJourneys,
  measuredSeconds,
  planShards,
  tally,
} from './journey-shards.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('journey shards', () => {
  it('gives each file, longest first, to the shard with the fewest seconds so far', () => {
    const durations = { 'e2e/a.e2e.test.ts': 70, 'e2e/b.e2e.test.ts': 60, 'e2e/c.e2e.test.ts': 50 };
    const files = ['e2e/c.e2e.test.ts', 'e2e/a.e2e.test.ts', 'e2e/b.e2e.test.ts', 'e2e/d.e2e.test.ts'];
    expect(planShards(files, durations, 2, 40)).toEqual([
      { files: ['e2e/a.e2e.test.ts', 'e2e/d.e2e.test.ts'], seconds: 110 },
      { files: ['e2e/b.e2e.test.ts', 'e2e/c.e2e.test.ts'], seconds: 110 },
    ]);
  });

  it('plans every journey exactly once, the committed table keeping the two shards within a file of each other', () => {
    const durations = JSON.parse(fs.readFileSync(`${root}/e2e/durations.json`, 'utf8')) as Record<string, number>;
    const journeys = listJourneys(root);
    expect(journeys).toContain('e2e/smoke.e2e.test.ts');
    // A name left in the table after its file was renamed or removed would balance nothing.
    expect(Object.keys(durations).filter((file) => !journeys.includes(file))).toEqual([]);
    const plan = planShards(journeys, durations, 2);
    expect(plan.flatMap((shard) => shard.files).sort()).toEqual(journeys);
    const longest = Math.max(DEFAULT_JOURNEY_SECONDS, ...Object.values(durations));
    expect(Math.abs(plan[0]!.seconds - plan[1]!.seconds)).toBeLessThanOrEqual(longest);
  });

  it('drops empty shards when there are fewer files than shards', () => {
    expect(planShards(['e2e/a.e2e.test.ts'], {}, 2)).toEqual([
      { files: ['e2e/a.e2e.test.ts'], seconds: DEFAULT_JOURNEY_SECONDS },
    ]);
  });

  it('counts a shard that crashed, with no report or with failures outside its tests, as failed', () => {
    const report = (numPassedTests: number, numFailedTests: number) => ({
      numPassedTests,
      numFailedTests,
      testResults: [],
    });
    expect(
      tally([
        { report: report(30, 1), exit: 1 },
        { report: report(40, 0), exit: 0 },
      ]),
    ).toEqual({
      passed: 70,
      failed: 1,
    });
    expect(
      tally([
        { report: report(30, 0), exit: 0 },
        { report: null, exit: 'SIGKILL' },
      ]),
    ).toEqual({
      passed: 30,
      failed: 1,
    });
    expect(tally([{ report: report(30, 0), exit: 1 }])).toEqual({ passed: 30, failed: 1 });
  });

  it('reads each file seconds from the reports, keyed as the table keys them', () => {
    const testResults = [
      { name: `${root}e2e/b.e2e.test.ts`, startTime: 1_000, endTime: 61_400 },
      { name: `${root}e2e/a.e2e.test.ts`, startTime: 0, endTime: 9_600 },
    ];
    expect(measuredSeconds(root, [{ numPassedTests: 2, numFailedTests: 0, testResults }])).toEqual({
      'e2e/a.e2e.test.ts': 10,
      'e2e/b.e2e.test.ts': 60,
    });
  });

  it('names each failed test with the first line of its error, and a file that failed outside its tests', () => {
    const testResults = [
      {
        name: `${root}e2e/a.e2e.test.ts`,
        startTime: 0,
        endTime: 1,
        message: '',
        assertionResults: [
          { fullName: 'a > passes', status: 'passed', failureMessages: [] },
          { fullName: 'a > waits', status: 'failed', failureMessages: ['Error: timed out\n    at x.ts:1'] },
        ],
      },
      { name: `${root}apps/b.test.ts`, startTime: 0, endTime: 1, message: 'Error: no database', assertionResults: [] },
    ];
    expect(failureLines(root, [{ numPassedTests: 1, numFailedTests: 1, testResults }])).toEqual([
      'FAILED e2e/a.e2e.test.ts > a > waits: Error: timed out',
      'FAILED apps/b.test.ts: Error: no database',
    ]);
  });
});
