// @ts-check
import cluster from 'node:cluster';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureImagingTools } from './imaging-tools.js';
import { ensureServerBuild, SERVER_MAIN } from '../apps/server/build.js';
import { ensureWebBuild } from './web-build.js';

/**
 * `npm start` (and `npm start --workspace apps/server -- --role api|worker`): one Node process that checks what the
 * chosen role needs (the slide readers for conversions, the web build for HTTP, the server's build), builds only what
 * changed since its stamp, then runs the built server in this same process. Plain JavaScript, as Node 20 runs no
 * TypeScript and the server's own build may not exist yet.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
/** @param {string} name */
const option = (name) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : args.find((arg) => arg.startsWith(`${name}=`))?.slice(name.length + 1);
};
const role = option('--role') ?? 'all';
const migrateOnly = args.includes('--migrate-only');

// HTTP_PROCESSES forks this script again: the primary has checked and built everything.
if (cluster.isPrimary) {
  if (!migrateOnly && role !== 'api') ensureImagingTools();
  if (!migrateOnly && role !== 'worker' && !(await ensureWebBuild(root))) process.exit(1);
  if (await ensureServerBuild(root)) console.log('Server built into apps/server/dist.');
}
process.setSourceMapsEnabled(true);
await import(pathToFileURL(path.join(root, SERVER_MAIN)).href);
