import type pg from 'pg';
import type { CapturedQuery } from './capture.ts';

export interface Plan {
  lines: string[];
  executionMs: number;
  /** GIN indexes the plan reads (trigram or array). */
  ginIndexes: string[];
  otherIndexes: string[];
  seqScans: string[];
}

const INDEX_NODE = /(?:Bitmap Index Scan on|Index Only Scan(?: Backward)? using|Index Scan(?: Backward)? using) (\S+)/;
const SEQ_SCAN = /Seq Scan on (\S+)/;

/** Names of all GIN indexes of the database, to tell them apart in plans. */
export async function ginIndexNames(pool: pg.Pool): Promise<Set<string>> {
  const { rows } = await pool.query<{ indexname: string }>(
    `SELECT indexname FROM pg_indexes WHERE schemaname = 'public' AND indexdef LIKE '%USING gin%'`,
  );
  return new Set(rows.map((row) => row.indexname));
}

/** EXPLAIN (ANALYZE, BUFFERS) of a captured statement with its own parameters. */
export async function explain(pool: pg.Pool, query: CapturedQuery, gin: Set<string>): Promise<Plan> {
  const { rows } = await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${query.sql}`, query.params);
  const lines = rows.map((row) => row['QUERY PLAN']);
  const indexes = new Set<string>();
  const seqScans = new Set<string>();
  for (const line of lines) {
    const index = INDEX_NODE.exec(line)?.[1];
    if (index != null) indexes.add(index);
    const table = SEQ_SCAN.exec(line)?.[1];
    if (table != null) seqScans.add(table);
  }
  const execution = lines.map((line) => /Execution Time: ([\d.]+) ms/.exec(line)?.[1]).find((value) => value != null);
  return {
    lines,
    executionMs: Number(execution ?? NaN),
    ginIndexes: [...indexes].filter((name) => gin.has(name)),
    otherIndexes: [...indexes].filter((name) => !gin.has(name)),
    seqScans: [...seqScans],
  };
}

/** One line: which indexes the plan uses and whether it scans a table whole. */
export function indexSummary(plan: Plan): string {
  const list = (names: string[]) => (names.length === 0 ? '—' : names.join(', '));
  return (
    `GIN: ${list(plan.ginIndexes)} | other indexes: ${list(plan.otherIndexes)} | ` +
    `seq scans: ${list(plan.seqScans)} | execution ${plan.executionMs.toFixed(1)} ms`
  );
}

/** The first table a statement reads, to name the secondary queries of a request. */
export function mainTable(query: CapturedQuery): string {
  return /\bfrom "?(\w+)"?/i.exec(query.sql)?.[1] ?? '?';
}
