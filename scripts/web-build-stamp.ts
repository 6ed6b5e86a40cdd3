import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

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
export const STAMP_FILE = '.inputs.sha256';

const isTest = (name: string) => /\.test\.tsx?$/.test(name);

async function listFiles(root: string, relative: string): Promise<string[]> {
  const stat = await fs.stat(path.join(root, relative)).catch(() => null);
  if (stat == null) return [];
  if (!stat.isDirectory()) return [relative];
  const entries = await fs.readdir(path.join(root, relative), { withFileTypes: true });
  const nested = await Promise.all(
    entries
      .filter((entry) => entry.name !== 'node_modules' && !isTest(entry.name))
      .map((entry) => listFiles(root, path.posix.join(relative, entry.name))),
  );
  return nested.flat();
}

/** One SHA-256 over the paths and contents of every input file, in a fixed order. */
export async function webInputsHash(root: string): Promise<string> {
  const files = (await Promise.all(WEB_BUILD_INPUTS.map((input) => listFiles(root, input)))).flat().sort();
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(await fs.readFile(path.join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** Whether dist holds a finished build of exactly these inputs. */
export async function webBuildIsCurrent(root: string, inputsHash: string): Promise<boolean> {
  const dist = path.join(root, WEB_DIST);
  const [index, stamp] = await Promise.all([
    fs.access(path.join(dist, 'index.html')).then(
      () => true,
      () => false,
    ),
    fs.readFile(path.join(dist, STAMP_FILE), 'utf8').catch(() => null),
  ]);
  return index && stamp?.trim() === inputsHash;
}

export async function writeWebBuildStamp(root: string, inputsHash: string): Promise<void> {
  await fs.writeFile(path.join(root, WEB_DIST, STAMP_FILE), `${inputsHash}\n`);
}
