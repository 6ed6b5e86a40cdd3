import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppServer, type AppServer } from './support/app-server.ts';
import { launchBrowser, withAppPage } from './support/browser.ts';
import { settle, switchLanguage, waitForShell } from './support/shell.ts';
import { signIn } from './support/sign-in.ts';

/** A server of this file's own (its own data folder) whose case routes answer late and fail a fifth of the time. */
const CHAOS = 'delay:100-400,errors:0.2,routes:/api/v1/cases*';
let server: AppServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startAppServer({ env: { CHAOS }, logName: 'chaos-server.log' }),
    launchBrowser(),
  ]);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('CHAOS: a demo server that delays and fails the case routes on purpose', () => {
  it.each(['en', 'ja'] as const)('says so in a banner, and the case list still loads (%s)', async (language) => {
    await withAppPage(browser, server.url, `chaos-${language}`, async (app) => {
      const { page } = app;
      await signIn(page, 'member', '/cases');
      await waitForShell(page);
      await switchLanguage(page, language);
      const banner = page.getByTestId('chaos-banner');
      await banner.waitFor();
      expect(await banner.innerText()).toContain(
        language === 'en' ? 'Test mode: requests are delayed and fail on purpose' : 'テストモード',
      );
      expect(await banner.innerText()).toContain('/api/v1/cases*');
      // Failed loads are retried; an error state that remains offers Retry.
      await expect
        .poll(
          async () => {
            const retry = page.getByRole('button', { name: language === 'en' ? 'Retry' : '再試行' });
            if (await retry.isVisible()) await retry.click();
            return page.locator('[data-testid="case-table"][aria-busy="false"] tbody tr').count();
          },
          { timeout: 60_000, interval: 1000 },
        )
        .toBeGreaterThan(0);
      await settle(page);
      await app.screenshot(`chaos-banner-${language}`);
    });
  });
});
