import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ExportQuery } from './export-queries.ts';

/** Spreadsheet programs read UTF-8 (and Japanese correctly) only after a byte order mark. */
const BOM = '\uFEFF';

/**
 * An export as CSV, written by PostgreSQL itself (COPY … TO STDOUT, CSV with header) and streamed
 * through as it comes: memory stays flat at any size and the rows go out at COPY's own speed.
 * Destroying the stream (a client gone) ends the COPY and discards its connection.
 */
export function exportCsv(pool: pg.Pool, query: ExportQuery): Readable {
  const out = new PassThrough();
  out.write(BOM);
  void (async () => {
    const client = await pool.connect().catch((error: unknown) => {
      out.destroy(error as Error);
      return null;
    });
    if (!client) return;
    try {
      await pipeline(client.query(copyTo(`COPY (${query.sql}) TO STDOUT WITH (FORMAT csv, HEADER)`)), out);
      client.release();
    } catch (error) {
      // A connection left inside an unfinished COPY cannot serve anyone else.
      client.release(error as Error);
      out.destroy(error as Error);
    }
  })();
  return out;
}
