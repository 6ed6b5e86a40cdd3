import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The multi-process topology (`npm run test:scale`): Debian's PostgreSQL, the S3 server, nginx,
 * API and worker processes on this machine. Kept out of `npm test`'s run; .ci/run calls it.
 */
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('..', import.meta.url)),
    include: ['scale/**/*.test.ts'],
    fileParallelism: false,
    pool: 'forks',
    testTimeout: 240_000,
    hookTimeout: 300_000,
  },
});
