import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The multi-process topology (`npm run test:scale`): Debian's PostgreSQL, the S3 server, nginx,
 * API and worker processes on this machine, and what must be timed with nothing else running (the stall test).
 * Kept out of `npm test`'s run. .ci/run runs its files beside lint and typecheck, whose CPU fills the topology's
 * waits, and then the stall test (no-request-stalls) with nothing beside it.
 */
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('..', import.meta.url)),
    include: ['scale/**/*.test.ts'],
    // The embedded PostgreSQL of the unit tests, for the tests that start one server on a database of their own.
    globalSetup: ['apps/server/test/global-setup.ts'],
    fileParallelism: false,
    pool: 'forks',
    testTimeout: 240_000,
    hookTimeout: 300_000,
  },
});
