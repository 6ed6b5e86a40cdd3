import fs from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { screenshotsDir } from './paths.ts';

/** Debian's Chromium; CHROMIUM_PATH points elsewhere (e.g. a Chrome install on a developer's Mac). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: process.env.E2E_HEADED !== '1',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface AppPage {
  page: Page;
  /** Console errors and uncaught page errors seen so far; a journey should end with none. */
  consoleErrors: string[];
  /** Saves a full-page PNG to test-results/screenshots/<name>.png and returns its path. */
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
}

/** Opens a page in a fresh context (own storage, so language and session start clean) aimed at the app. */
export async function openAppPage(
  browser: Browser,
  baseURL: string,
  options: BrowserContextOptions = {},
): Promise<AppPage> {
  const context = await browser.newContext({
    baseURL,
    viewport: { width: 1280, height: 800 },
    locale: 'ja-JP',
    timezoneId: 'Asia/Tokyo',
    ...options,
  });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(`${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => consoleErrors.push(`uncaught: ${error.message}`));

  return {
    page,
    consoleErrors,
    async screenshot(name) {
      const file = path.join(screenshotsDir, `${name}.png`);
      await fs.mkdir(screenshotsDir, { recursive: true });
      await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
      return file;
    },
    close: () => context.close(),
  };
}
