import { defineConfig } from 'vitest/config';

const testForks = Number(process.env.TEST_FORKS ?? 2);

/**
 * Test files that touch no module state another test file could see (no module-level variable of the code they
 * import is written, nothing mocked, no fake timers, no environment, no database, no child process): they run one
 * after another in the same workers (isolate: false), sparing each the start of a worker and the loading of its
 * module graph, which cost far more than their tests. A new file belongs here only after the same check.
 */
const SHARED_WORKER_FILES = [
  'apps/web/src/**/*.test.ts',
  'packages/contract/**/*.test.ts',
  'apps/server/src/auth/capabilities/case-capabilities.test.ts',
  'apps/server/src/auth/capabilities/contract-capabilities.test.ts',
  'apps/server/src/auth/capabilities/organization-capabilities.test.ts',
  'apps/server/src/auth/capabilities/role-checks.test.ts',
  'apps/server/src/auth/idp/login-page.test.ts',
  'apps/server/src/auth/password.test.ts',
  'apps/server/src/config.test.ts',
  'apps/server/src/http/byte-range.test.ts',
  'apps/server/src/http/content-disposition.test.ts',
  'apps/server/src/http/merge-patch.test.ts',
  'apps/server/src/http/web-app.test.ts',
  'apps/server/src/imaging/dicom-write.test.ts',
  'apps/server/src/imaging/sniff.test.ts',
  'apps/server/src/modules/comments/mentions.test.ts',
  'apps/server/src/modules/detections/area-cells.test.ts',
  'apps/server/src/modules/detections/copy-rows.test.ts',
  'apps/server/src/modules/detections/detection-cell-centres.test.ts',
  'apps/server/src/modules/detections/detection-cell-counts.test.ts',
  'apps/server/src/modules/detections/detection-feature.test.ts',
  'apps/server/src/modules/detections/detection-grid.test.ts',
  'apps/server/src/modules/detections/detection-marks.test.ts',
  'apps/server/src/modules/detections/detection-object.test.ts',
  'apps/server/src/modules/detections/feature-collection-splitter.test.ts',
  'apps/server/src/modules/dicomweb/dicom-attributes.test.ts',
  'apps/server/src/modules/iiif/tile-cache.test.ts',
  'apps/server/src/modules/images/conversion-hold.test.ts',
  'apps/server/src/modules/predictions/model-registry.test.ts',
  'apps/server/src/modules/predictions/slide-objects.test.ts',
  'apps/server/src/startup/drain.test.ts',
  'apps/server/src/storage/batched-file-writer.test.ts',
  'apps/server/src/storage/create-blob-store.test.ts',
  'apps/server/src/storage/filesystem-blob-store.test.ts',
];

/**
 * Web test files that do not pass that check: they mock modules or timers, or reach a module with state of its own
 * (the API client's token provider, the upload sequences and stores, the drawings' geometry cache and scratch).
 */
const WEB_FILES_NEEDING_ISOLATION = [
  'apps/web/src/api/client.test.ts',
  'apps/web/src/app/auth/session.test.ts',
  'apps/web/src/app/query-client.test.ts',
  'apps/web/src/app/update-checker/update-checker.test.ts',
  'apps/web/src/features/bulk-upload/bulk-upload.test.ts',
  'apps/web/src/features/case-images/dicom-offers.test.ts',
  'apps/web/src/features/compare/compare-keys.test.ts',
  'apps/web/src/features/detections/detection-tiles.test.ts',
  'apps/web/src/features/drawings/drawing-scene.test.ts',
  'apps/web/src/features/drawings/drawing-session.test.ts',
  'apps/web/src/features/drawings/drawing-shortcuts.test.ts',
  'apps/web/src/features/drawings/drawing-visibility.test.ts',
  'apps/web/src/features/drawings/lazy-geometry.test.ts',
  'apps/web/src/features/uploads/case-creation.test.ts',
  'apps/web/src/features/uploads/case-lookup.test.ts',
  'apps/web/src/features/uploads/upload-dialog.state.test.ts',
  'apps/web/src/features/uploads/upload-engine.test.ts',
  'apps/web/src/features/viewer-colour/colour-panel.test.ts',
  'apps/web/src/features/viewer/tile-revival.test.ts',
  'apps/web/src/lib/counter-store.test.ts',
];

const NODE_MODULES = '**/node_modules/**';

export default defineConfig({
  test: {
    exclude: [NODE_MODULES, 'e2e/**'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Two files at a time by default (TEST_FORKS to measure others): the slowest files mostly wait on server
    // processes, conversions and restarts. Vitest's default for a run (one core left free) would run one file at a
    // time on the 2-core CI machine. Isolation is a setting of the pool, not of the project: the shared-worker files
    // run in the threads pool, all others in forks, each file in a fresh process.
    poolOptions: {
      forks: { minForks: testForks, maxForks: testForks },
      threads: { isolate: false, minThreads: testForks, maxThreads: testForks },
    },
    projects: [
      {
        extends: true,
        test: {
          name: 'shared-workers',
          include: SHARED_WORKER_FILES,
          exclude: [NODE_MODULES, ...WEB_FILES_NEEDING_ISOLATION],
          pool: 'threads',
          // Before the isolated files, not beside them: the two pools would otherwise run four files at a time.
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'isolated',
          include: [
            'apps/server/**/*.test.ts',
            'apps/**/*.test.tsx',
            'scripts/**/*.test.ts',
            'bench/**/*.test.ts',
            ...WEB_FILES_NEEDING_ISOLATION,
          ],
          exclude: [NODE_MODULES, ...SHARED_WORKER_FILES.filter((file) => file.startsWith('apps/server/'))],
          globalSetup: ['apps/server/test/global-setup.ts'],
          pool: 'forks',
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
