import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { ensureServerBuild } from '../build.js';
import { createDatabase } from '../src/db/client.ts';
import { startEmbeddedPostgres } from '../src/db/embedded.ts';
import { runMigrations } from '../src/db/migrate.ts';
import { freePort } from './free-port.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    templateDatabaseUrl: string;
  }
}

export const TEMPLATE_DATABASE = 'pathology_template';
const TEST_CLUSTER_FLAGS = ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'];

/** One embedded PostgreSQL for the whole run; each test file clones the migrated template database. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Once, before the test files that start server processes (server-process.ts) would each find it stale.
  await ensureServerBuild(fileURLToPath(new URL('../../../', import.meta.url)));
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'pathology-test-pg-'));
  await fs.chmod(dir, 0o755);
  const server = await startEmbeddedPostgres({
    dataDir: path.join(dir, 'pg'),
    port: await freePort(),
    database: TEMPLATE_DATABASE,
    // A throw-away cluster: nothing needs to survive a crash of the machine, and each test file clones the
    // template, which with fsync on waits for the disk once per file and per commit.
    flags: TEST_CLUSTER_FLAGS,
  });
  const database = createDatabase(server.url, { max: 2 });
  await runMigrations(database);
  await database.close();
  project.provide('templateDatabaseUrl', server.url);
  return async () => {
    await server.stop();
    await fs.rm(dir, { recursive: true, force: true });
  };
}
