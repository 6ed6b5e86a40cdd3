import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startAppServer } from './app-server.ts';
import { screenshotsDir, webDist } from './paths.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the app under test answers, e.g. http://localhost:41234. */
    baseURL: string;
  }
}

/**
 * Starts the app once for the whole run. Set E2E_BASE_URL to drive an app that is already running instead
 * (e.g. `npm start` in another terminal while writing a spec).
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  await fsp.rm(screenshotsDir, { recursive: true, force: true });
  await fsp.mkdir(screenshotsDir, { recursive: true });

  const external = process.env.E2E_BASE_URL;
  if (external) {
    project.provide('baseURL', external.replace(/\/$/, ''));
    return undefined;
  }

  if (!fs.existsSync(path.join(webDist, 'index.html'))) {
    throw new Error(
      `No web build in ${webDist}: run \`npm run build --workspace apps/web\` first (npm run test:e2e does).`,
    );
  }
  const server = await startAppServer({ keepData: process.env.E2E_KEEP_DATA === '1' });
  project.provide('baseURL', server.url);
  return async () => {
    const exit = await server.stop();
    // Not a test failure (every journey already passed), but an unclean shutdown is a server bug worth seeing.
    if (exit !== 0) console.warn(`e2e: the app server exited with ${exit} on SIGTERM; see ${server.logFile}`);
  };
}
