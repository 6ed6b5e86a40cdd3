import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * End-to-end run: one real app (server + built web) for the whole run, driven by Chromium.
 * `npm run build --workspace apps/web && npx vitest run --config e2e/vitest.config.ts`
 * `npm test` starts several such runs side by side, each on a share of the files (scripts/journey-shards.ts).
 */
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('..', import.meta.url)),
    include: ['e2e/**/*.e2e.test.ts'],
    globalSetup: ['e2e/support/global-setup.ts'],
    // Journeys share one server and its data; running them one after another keeps them independent of timing.
    fileParallelism: false,
    pool: 'forks',
    // One worker runs a shard's files in turn: each file still launches its browser and closes it, and the support
    // modules keep no state between files, but the worker's start and its module graph (Playwright, the server's
    // shared modules) are paid once instead of per file (about 1.1 CPU s a file, measured on six journeys).
    isolate: false,
    testTimeout: 120_000,
    // A browser under CI load may take seconds to re-render; vitest's default of 1 s makes polls flaky.
    expect: { poll: { timeout: 15_000, interval: 100 } },
    // The first start initialises an embedded PostgreSQL cluster and migrates it.
    hookTimeout: 240_000,
    teardownTimeout: 60_000,
  },
});
