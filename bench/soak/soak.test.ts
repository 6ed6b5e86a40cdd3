import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { freePort } from '../../apps/server/test/free-port.ts';
import { builtServerMain } from '../../apps/server/test/server-process.ts';
import { DEFAULT_OPTIONS } from './options.ts';
import { finalReport, tally } from './report.ts';
import { runSoak } from './run-soak.ts';
import { SoakServer } from './server.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
}, 120_000);

// Issue 46, point 5: the soak shortened to a minute, with its crash, so that a regression fails the unit suite. The
// latency goals are left to the full run on a quiet machine; this judges what must hold on any machine.
it('loses no write and answers no 5xx outside the downtime through a kill -9 in the middle of a minute of load', async () => {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'pathology-soak-test-'));
  cleanups.push(() => fs.rm(dataDir, { recursive: true, force: true }));
  // The built server `npm start` runs, started the same way again after the kill.
  const server = new SoakServer(
    {
      command: process.execPath,
      args: ['--enable-source-maps', builtServerMain],
      cwd: path.dirname(builtServerMain),
      // Conversions at the normal niceness: other test files run beside this one.
      env: { SEED_DEMO: 'false', LOG_LEVEL: 'warn', WEB_DIST: '/nonexistent', CONVERSION_NICENESS: '0' },
    },
    dataDir,
    await freePort(),
    await freePort(),
  );
  cleanups.push(() => server.stop());
  await server.launch();
  const lines: string[] = [];
  const result = await runSoak(
    server,
    {
      ...DEFAULT_OPTIONS,
      minutes: 1,
      viewers: 10,
      killAt: 0.5,
      uploads: 2,
      detections: 5_000,
      printEverySeconds: 10,
      finishSeconds: 40,
    },
    (line) => {
      lines.push(line);
      console.log(line);
    },
  );
  const report = finalReport(result).text;
  const explain = `${lines.join('\n')}\n${report}`;
  expect(result.downtimesMs, explain).toHaveLength(1);
  expect(result.writes.length, explain).toBeGreaterThanOrEqual(15);
  expect(result.uploads.filter((upload) => upload.converted).length, explain).toBeGreaterThanOrEqual(2);
  expect(tally(result), explain).toEqual({
    serverErrorsOutsideDowntime: 0,
    unansweredOutsideDowntime: 0,
    lostWrites: 0,
    uploadsNotConverted: 0,
    importsNotCompleted: 0,
  });
}, 180_000);
