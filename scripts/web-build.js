// @ts-check
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { checkBuild, writeStamp } from './build-stamp.js';

/**
 * What the web build reads, relative to the repository: its sources, the shared contract, and what
 * decides the tools and dependencies. Tests never reach the bundle, so they do not count.
 */
export const WEB_BUILD_INPUTS = [
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/package.json',
  'apps/web/postcss.config.js',
  'apps/web/tsconfig.json',
  'apps/web/vite.config.ts',
  'packages/contract/src',
  'packages/contract/package.json',
  'packages/contract/tsconfig.json',
  'package-lock.json',
  'tsconfig.base.json',
];

export const WEB_DIST = 'apps/web/dist';
/** Inside dist, so `vite build` (which empties dist first) drops it, and a build that fails half-way leaves none. */
export const STAMP_FILE = '.inputs.json';

/** @param {string} root */
export function checkWebBuild(root) {
  return checkBuild({ root, inputs: WEB_BUILD_INPUTS, dist: WEB_DIST, output: 'index.html', stampFile: STAMP_FILE });
}

/**
 * @param {string} root
 * @param {import('./build-stamp.js').Stamp} stamp
 */
export function writeWebBuildStamp(root, stamp) {
  return writeStamp(path.join(root, WEB_DIST, STAMP_FILE), stamp);
}

/**
 * Builds the web app (Vite, a process of its own) and stamps the build; false when the build failed.
 * @param {string} root
 * @param {import('./build-stamp.js').Stamp} stamp of the inputs, taken before the build
 */
export async function buildWeb(root, stamp) {
  const build = spawnSync('npm', ['run', 'build', '--workspace', 'apps/web'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) return false;
  await writeWebBuildStamp(root, stamp);
  return true;
}

/**
 * Builds the web app only when its inputs changed since the last build; false when a needed build failed.
 * @param {string} root
 */
export async function ensureWebBuild(root) {
  const { current, stamp } = await checkWebBuild(root);
  if (current) return true;
  return buildWeb(root, stamp);
}
