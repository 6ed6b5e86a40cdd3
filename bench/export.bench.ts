import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { pipeline } from 'node:stream/promises';
import { to as copyTo } from 'pg-copy-streams';
import { createDatabase } from '../apps/server/src/db/client.ts';
import { startEmbeddedPostgres } from '../apps/server/src/db/embedded.ts';
import { runMigrations } from '../apps/server/src/db/migrate.ts';
import { IMAGES_EXPORT } from '../apps/server/src/modules/exports/export-queries.ts';
import { freePort } from '../apps/server/test/free-port.ts';
import { summarize } from './support/stats.ts';
import { formatTable } from './support/table.ts';
import { countingSink } from './export/counting-sink.ts';

export const description =
  'The images export (the stream GET export/images sends) over 1,000,000 images in a process of its own: rows/s and peak RSS, next to COPY … TO STDOUT CSV of the same rows (--rows N, --runs N)';

const GOALS = { peakRssMb: 200, ratio: 0.5 };
const CASES = 1000;
const execFileAsync = promisify(execFile);
const childScript = fileURLToPath(new URL('./export/export-child.ts', import.meta.url));

interface ChildResult {
  ms: number;
  peakRss: number;
  baselineRss: number;
  lines: number;
  bytes: number;
}

/** The export in a process of its own (bench/export/export-child.ts), so its peak RSS is the export's alone. */
async function exportInChild(databaseUrl: string): Promise<ChildResult> {
  const { stdout } = await execFileAsync(process.execPath, ['--import', 'tsx', childScript, databaseUrl], {
    maxBuffer: 1024 * 1024,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as ChildResult;
}

/** Runs `task` while sampling this process's RSS; returns its time and the highest RSS seen. */
async function measured(task: () => Promise<void>): Promise<{ ms: number; peakRss: number }> {
  let peakRss = process.memoryUsage.rss();
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 20);
  const started = performance.now();
  try {
    await task();
  } finally {
    clearInterval(sampler);
  }
  return { ms: performance.now() - started, peakRss: Math.max(peakRss, process.memoryUsage.rss()) };
}

export async function run(args: string[]): Promise<void> {
  const option = (name: string, fallback: number) => {
    const at = args.indexOf(name);
    return at === -1 ? fallback : Number(args[at + 1]);
  };
  const rows = option('--rows', 1_000_000);
  const runs = option('--runs', 3);
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'export-bench-'));
  const embedded = await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'pg'), port: await freePort() });
  const database = createDatabase(embedded.url, { max: 4 });
  try {
    await runMigrations(database);
    console.log(`Generating ${rows.toLocaleString('en')} images in ${CASES} cases…`);
    const started = performance.now();
    await database.pool.query(`
      WITH contract AS (INSERT INTO contracts (name, start_date) VALUES ('Bench', '2024-01-01') RETURNING id),
        organization AS (INSERT INTO organizations (name, contract_id) SELECT '札幌病理センター', id FROM contract RETURNING id)
      INSERT INTO cases (case_number, owner_organization_id)
        SELECT 'EXP-' || n, organization.id FROM organization, generate_series(1, ${CASES}) AS n`);
    await database.pool.query(
      `INSERT INTO images (case_id, filename, display_name, status, size, width, height, magnification, organ, image_tags)
       SELECT c.id, 'slide-' || n || '.svs',
         CASE WHEN n % 100 = 0 THEN '=SUM(A1:A9) 胃生検 ' || n ELSE '胃生検 HE ' || n END,
         'available', 1000000 + n, 40000, 30000, 20, 'Stomach', ARRAY['HE', 'teaching']
       FROM generate_series(1, $1::int) AS n
       JOIN (SELECT id, row_number() OVER (ORDER BY id) - 1 AS k FROM cases) c ON c.k = n % ${CASES}`,
      [rows],
    );
    await database.pool.query('VACUUM ANALYZE');
    console.log(`  ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const ours: ChildResult[] = [];
    const copy: number[] = [];
    let lines = 0;
    let bytes = 0;
    for (let attempt = 0; attempt <= runs; attempt++) {
      // Alternating, after a first round that warms the cache for both.
      const result = await exportInChild(embedded.url);
      const client = await database.pool.connect();
      const copySink = countingSink();
      const copied = await measured(async () => {
        const stream: Readable = client.query(
          copyTo(`COPY (${IMAGES_EXPORT.sql}) TO STDOUT WITH (FORMAT csv, HEADER)`),
        );
        await pipeline(stream, copySink);
      });
      client.release();
      if (attempt === 0) continue;
      ours.push(result);
      copy.push(copied.ms);
      ({ lines, bytes } = result);
      if (copySink.lines !== result.lines) {
        throw new Error(`COPY wrote ${copySink.lines} lines, the export ${result.lines}`);
      }
    }
    const ourMs = summarize(ours.map((entry) => entry.ms)).median;
    const copyMs = summarize(copy).median;
    const peakMb = Math.max(...ours.map((entry) => entry.peakRss)) / 2 ** 20;
    const baselineMb = Math.max(...ours.map((entry) => entry.baselineRss)) / 2 ** 20;
    const ourRate = ((lines - 1) / ourMs) * 1000;
    const copyRate = ((lines - 1) / copyMs) * 1000;
    console.log(
      `\n${(lines - 1).toLocaleString('en')} rows, ${(bytes / 2 ** 20).toFixed(0)} MiB of CSV; ${runs} runs, medians\n`,
    );
    console.log(
      formatTable(
        [{ title: 'measure' }, { title: 'value', align: 'right' }, { title: 'goal' }, { title: 'met' }],
        [
          ['export: rows/s', ourRate.toFixed(0), '', ''],
          ['COPY … TO STDOUT CSV: rows/s', copyRate.toFixed(0), '', ''],
          [
            'export ÷ COPY',
            (ourRate / copyRate).toFixed(2),
            `≥ ${GOALS.ratio}`,
            ourRate / copyRate >= GOALS.ratio ? 'yes' : 'no',
          ],
          ['RSS of the exporting process before it starts (MiB)', baselineMb.toFixed(0), '', ''],
          [
            'peak RSS of the exporting process (MiB)',
            peakMb.toFixed(0),
            `< ${GOALS.peakRssMb}`,
            peakMb < GOALS.peakRssMb ? 'yes' : 'no',
          ],
        ],
      ),
    );
  } finally {
    await database.close();
    await embedded.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}
