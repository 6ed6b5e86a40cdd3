import fs from 'node:fs/promises';
import path from 'node:path';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { startAppServer, type AppServer } from '../../e2e/support/app-server.ts';
import { launchBrowser, openAppPage } from '../../e2e/support/browser.ts';
import { webDist } from '../../e2e/support/paths.ts';
import { signIn } from '../../e2e/support/sign-in.ts';

/**
 * Runs `body` on a page of the whole app (as `npm start` runs it: embedded PostgreSQL, api and worker in one
 * process, the built web app) in headless Chromium, signed in as the demo member on the case list; stops both after.
 */
export async function withMemberPage<T>(options: BrowserContextOptions, body: (page: Page) => Promise<T>): Promise<T> {
  await fs.access(path.join(webDist, 'index.html')).catch(() => {
    throw new Error('the browser mode needs the built web app: npm run build -w apps/web');
  });
  let server: AppServer | undefined;
  const browser = await launchBrowser({ headlessShell: false });
  try {
    server = await startAppServer({ env: { LOG_LEVEL: 'warn' } });
    const app = await openAppPage(browser, server.url, options);
    try {
      await signIn(app.page, 'member', '/cases');
      return await body(app.page);
    } finally {
      await app.close();
    }
  } finally {
    await browser.close();
    await server?.stop();
  }
}
