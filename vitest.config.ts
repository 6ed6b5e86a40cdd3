import { defineConfig } from 'vitest/config';

const testForks = Number(process.env.TEST_FORKS ?? 2);

export default defineConfig({
  test: {
    include: [
      'packages/**/*.test.ts',
      'apps/**/*.test.ts',
      'apps/**/*.test.tsx',
      'scripts/**/*.test.ts',
      'bench/**/*.test.ts',
    ],
    exclude: ['**/node_modules/**', 'e2e/**'],
    globalSetup: ['apps/server/test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two files at a time by default (TEST_FORKS to measure others): the slowest files mostly wait on server
    // processes, conversions and restarts. Vitest's default for a run (one core left free) would run one file at a
    // time on the 2-core CI machine.
    poolOptions: { forks: { minForks: testForks, maxForks: testForks } },
  },
});
