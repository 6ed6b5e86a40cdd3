import { defineConfig } from 'vitest/config';

// Web unit tests are pure (no database), so they can run alone without the root config's PostgreSQL global setup:
// `npx vitest run --config apps/web/vitest.config.ts`. The root `npm test` picks them up as well.
export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    environment: 'node',
  },
});
