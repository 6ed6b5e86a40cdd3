import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { createDatabase, type Database } from '../src/db/client.ts';
// What the global setup provides (its ProvidedContext), for the configurations whose typecheck sees only this file.
import type {} from './global-setup.ts';

export interface TestDatabase extends Database {
  url: string;
}

/** A fresh, migrated database of its own for one test file (a clone of the template). */
export async function createTestDatabase(): Promise<TestDatabase> {
  const templateUrl = new URL(inject('templateDatabaseUrl'));
  const template = templateUrl.pathname.slice(1);
  const name = `test_${randomUUID().replaceAll('-', '')}`;
  const adminUrl = new URL(templateUrl);
  // Cloning fails while anyone is connected to the template, so administer from the maintenance database.
  adminUrl.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  try {
    // FILE_COPY copies the template's files whole; the default (WAL_LOG) writes each of its pages to the WAL, at
    // two to five times the CPU per clone (measured on the test cluster), and every test file clones the template.
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}" STRATEGY FILE_COPY`);
  } finally {
    await admin.end();
  }
  const url = new URL(templateUrl);
  url.pathname = `/${name}`;
  const database = createDatabase(url.toString());
  return { ...database, url: url.toString() };
}
