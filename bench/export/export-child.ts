import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { IMAGES_EXPORT } from '../../apps/server/src/modules/exports/export-queries.ts';
import { exportCsv } from '../../apps/server/src/modules/exports/export-stream.ts';
import { countingSink } from './counting-sink.ts';

/**
 * One export in a process of its own, so its peak RSS is the export's and nothing else's: prints
 * `{ ms, peakRss, baselineRss, lines, bytes }` as JSON. Argument: the database URL.
 */
const pool = new pg.Pool({ connectionString: process.argv[2], max: 2 });
const sink = countingSink();
await pool.query('SELECT 1');
const baselineRss = process.memoryUsage.rss();
let peakRss = baselineRss;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 20);
const started = performance.now();
await pipeline(exportCsv(pool, IMAGES_EXPORT), sink);
const ms = performance.now() - started;
clearInterval(sampler);
peakRss = Math.max(peakRss, process.memoryUsage.rss());
await pool.end();
console.log(JSON.stringify({ ms, peakRss, baselineRss, lines: sink.lines, bytes: sink.bytes }));
