import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { queryOnce } from '../apps/server/test/sql.ts';
import { DEFAULT_OPTIONS } from '../bench/soak/options.ts';
import { finalReport, serverErrorsByKill, tally } from '../bench/soak/report.ts';
import { runSoak } from '../bench/soak/run-soak.ts';
import { ScaledTarget } from '../bench/soak/scaled.ts';

let target: ScaledTarget | undefined;
afterAll(() => target?.stop(), 120_000);

// Issue 46, points 4 and 5: the soak shortened to 60 s through nginx, API 1 killed -9 at 15 s and a worker (one
// converting, if one is within 15 s) at 24 s, neither started again. Latency is left to the bench on a quiet
// machine; this judges what must hold on any. At least 21 s follow the second kill: each upload slot waits for its
// slide's conversion before the next, and 45 s (kill at 30 s) left a loaded machine 14 s, in which no upload began.
it('loses no write and answers 5xx only inside nginx health interval while an API and a worker are killed -9', async () => {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'pathology-scale-soak-'));
  await fs.chmod(root, 0o755);
  target = await ScaledTarget.start(root);
  const lines: string[] = [];
  const result = await runSoak(
    target,
    {
      ...DEFAULT_OPTIONS,
      topology: 'scaled',
      minutes: 1,
      viewers: 10,
      killApiAt: 0.25,
      killWorkerAt: 0.4,
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
  const explain = `${lines.join('\n')}\n${report}\n${target.output()}\n--- nginx:\n${await target.nginxErrors()}`;
  console.log(report);
  expect(
    result.kills.map((kill) => kill.process),
    explain,
  ).toEqual(['API 1', expect.stringMatching(/^worker [12]$/)]);
  expect(target.metricsUrls(), explain).toHaveLength(2);
  expect(result.writes.length, explain).toBeGreaterThanOrEqual(12);
  expect(result.uploads.filter((upload) => upload.converted).length, explain).toBeGreaterThanOrEqual(2);
  // Slides uploaded after both kills were converted too: by the worker left.
  const afterKills = await queryOnce<{ status: string }>(
    target.databaseUrl,
    `SELECT status FROM images WHERE created_at > to_timestamp($1::float8 / 1000)`,
    [result.kills[1]!.killedAt],
  );
  expect(afterKills.length, explain).toBeGreaterThanOrEqual(1);
  expect(
    afterKills.every((image) => image.status === 'available'),
    explain,
  ).toBe(true);
  expect(serverErrorsByKill(result).outside, explain).toBe(0);
  expect(tally(result), explain).toEqual({
    serverErrorsOutsideDowntime: 0,
    unansweredOutsideDowntime: 0,
    lostWrites: 0,
    uploadsNotConverted: 0,
    importsNotCompleted: 0,
  });
}, 240_000);
