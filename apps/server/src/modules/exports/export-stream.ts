import { stringify } from 'csv-stringify';
import type pg from 'pg';
import Cursor from 'pg-cursor';
import { pipeline, Readable } from 'node:stream';
import { spreadsheetSafe } from '../../http/spreadsheet-safe.ts';
import type { ExportQuery } from './export-queries.ts';

/** Rows fetched per round trip: large enough to keep PostgreSQL busy, small enough to keep memory flat. */
const BATCH_ROWS = 5000;

async function* rowsOf(pool: pg.Pool, query: ExportQuery): AsyncGenerator<unknown[]> {
  const client = await pool.connect();
  const cursor = client.query(new Cursor<unknown[]>(query.sql, [], { rowMode: 'array' }));
  try {
    for (let rows = await cursor.read(BATCH_ROWS); rows.length > 0; rows = await cursor.read(BATCH_ROWS)) {
      yield* rows;
    }
  } finally {
    await cursor.close().catch(() => undefined);
    client.release();
  }
}

/**
 * An export as CSV text, streamed: rows come from a server-side cursor a batch at a time and go out
 * as they are written, so a million rows never sit in memory. Text cells that a spreadsheet would
 * run as a formula are written as text (CSV injection). A client that goes away ends the query.
 */
export function exportCsv(pool: pg.Pool, query: ExportQuery): Readable {
  const csv = stringify({
    header: true,
    columns: [...query.columns],
    // Spreadsheet programs read UTF-8 (and Japanese correctly) only after a byte order mark.
    bom: true,
    cast: {
      string: spreadsheetSafe,
      boolean: (value) => (value ? 'true' : 'false'),
      date: (value) => value.toISOString(),
    },
  });
  // Destroying either end (a finished or failed response) closes the cursor and frees its connection.
  pipeline(Readable.from(rowsOf(pool, query), { objectMode: true }), csv, () => undefined);
  return csv;
}
