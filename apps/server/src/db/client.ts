import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema/index.ts';

export type Db = NodePgDatabase<typeof schema>;

/** A transaction of the app's database, for helpers that must run inside one. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  pool: pg.Pool;
  close(): Promise<void>;
}

/** Opens a pooled connection to PostgreSQL; the pool is the only handle that needs closing. */
export function createDatabase(
  url: string,
  options: { max?: number; onError?: (error: Error) => void } = {},
): Database {
  // A connect that hangs (database host gone) fails after 5 s, so requests answer 503 instead of waiting.
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10, connectionTimeoutMillis: 5_000 });
  // An idle connection dropped by the server (restart, failover) must not crash the process; the pool reconnects.
  pool.on('error', (error) => options.onError?.(error));
  const db = drizzle(pool, { schema, casing: 'snake_case' });
  return { db, pool, close: () => pool.end() };
}
