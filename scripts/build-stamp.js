// @ts-check
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Whether a build is current, and its stamp: what the build's inputs looked like when it was made.
 * A start compares the inputs' listing (path, size and modification time of every file) with the
 * stamp's, a stat per file; only when the listing differs (an edit, a checkout that touched files)
 * are the files read and their hash compared, so a touched but unchanged tree is not built again.
 * Plain JavaScript: `npm start` checks the server's build before anything TypeScript can run.
 */

/** @typedef {{ listing: string, content: string }} Stamp */
/**
 * @typedef {object} BuildCheck
 * @property {boolean} current the build in `dist` was made from these inputs
 * @property {Stamp} stamp to write after a build: taken before it, so a file edited meanwhile makes the next start build again
 * @property {boolean} hashed whether the files' contents had to be read
 */

/** @param {string} name */
const isTest = (name) => /\.test\.tsx?$/.test(name);

/**
 * @param {string} root
 * @param {string} relative
 * @returns {Promise<string[]>}
 */
async function listFiles(root, relative) {
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

/**
 * The files under `inputs` (files or folders relative to `root`), tests and installed packages left out, in a fixed order.
 * @param {string} root
 * @param {readonly string[]} inputs
 */
export async function inputFiles(root, inputs) {
  return (await Promise.all(inputs.map((input) => listFiles(root, input)))).flat().sort();
}

/**
 * One SHA-256 over the paths, sizes and modification times of the files.
 * @param {string} root
 * @param {readonly string[]} files
 */
export async function listingHash(root, files) {
  const stats = await Promise.all(files.map((file) => fs.stat(path.join(root, file))));
  const hash = createHash('sha256');
  files.forEach((file, i) => hash.update(`${file}\0${stats[i]?.size}\0${stats[i]?.mtimeMs}\n`));
  return hash.digest('hex');
}

/**
 * One SHA-256 over the paths and contents of the files.
 * @param {string} root
 * @param {readonly string[]} files
 */
export async function contentHash(root, files) {
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(await fs.readFile(path.join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/**
 * @param {string} file
 * @returns {Promise<Stamp | null>}
 */
async function readStamp(file) {
  const text = await fs.readFile(file, 'utf8').catch(() => null);
  if (text == null) return null;
  try {
    const parsed = /** @type {Partial<Stamp>} */ (JSON.parse(text));
    return typeof parsed.listing === 'string' && typeof parsed.content === 'string'
      ? { listing: parsed.listing, content: parsed.content }
      : null;
  } catch {
    return null;
  }
}

/**
 * Whether `dist` holds a finished build (its `output` file and its stamp) of exactly these inputs.
 * A listing that changed while the contents did not is written into the stamp, so the next check is cheap again.
 * @param {{ root: string, inputs: readonly string[], dist: string, output: string, stampFile: string }} build
 * @returns {Promise<BuildCheck>}
 */
export async function checkBuild({ root, inputs, dist, output, stampFile }) {
  const files = await inputFiles(root, inputs);
  const listing = await listingHash(root, files);
  const stampPath = path.join(root, dist, stampFile);
  const [stamp, built] = await Promise.all([
    readStamp(stampPath),
    fs.access(path.join(root, dist, output)).then(
      () => true,
      () => false,
    ),
  ]);
  if (built && stamp?.listing === listing) return { current: true, stamp, hashed: false };
  const content = await contentHash(root, files);
  const current = built && stamp?.content === content;
  if (current) await writeStamp(stampPath, { listing, content });
  return { current, stamp: { listing, content }, hashed: true };
}

/**
 * @param {string} file
 * @param {Stamp} stamp
 */
export async function writeStamp(file, stamp) {
  await fs.writeFile(file, `${JSON.stringify(stamp)}\n`);
}
