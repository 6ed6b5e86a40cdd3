import { fileURLToPath } from 'node:url';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type { Database } from './client.ts';

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

// Any constant works; it only has to be the same in every process of this application.
const MIGRATION_LOCK = 727_001;

/**
 * Applies the committed SQL migrations; safe on every start. An advisory lock makes an api and a
 * worker starting together against one database take turns instead of racing.
 */
export async function runMigrations({ db, pool }: Pick<Database, 'db' | 'pool'>): Promise<void> {
  const lock = await pool.connect();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migrate(db, { migrationsFolder });
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    lock.release();
  }
}
