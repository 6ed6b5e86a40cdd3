import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startAppControl } from './app-control.ts';
import { startAppServer } from './app-server.ts';
import { screenshotsDir, webDist } from './paths.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the app under test answers, e.g. http://localhost:41234. */
    baseURL: string;
    /** The harness's restart endpoint (app-control.ts), or null when the app was started elsewhere. */
    appControlURL: string | null;
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
    project.provide('appControlURL', null);
    return undefined;
  }

  if (!fs.existsSync(path.join(webDist, 'index.html'))) {
    throw new Error(
      `No web build in ${webDist}: run \`npm run build --workspace apps/web\` first (npm run test:e2e does).`,
    );
  }
  const server = await startAppServer({ keepData: process.env.E2E_KEEP_DATA === '1' });
  const control = await startAppControl(server);
  project.provide('baseURL', server.url);
  project.provide('appControlURL', control.url);
  return async () => {
    await control.close();
    const exit = await server.stop();
    // Not a test failure (every journey already passed), but an unclean shutdown is a server bug worth seeing.
    if (exit !== 0) console.warn(`e2e: the app server exited with ${exit} on SIGTERM; see ${server.logFile}`);
  };
}
