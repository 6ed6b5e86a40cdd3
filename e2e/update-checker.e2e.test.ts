import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, withAppPage } from './support/browser.ts';
import { openUserMenu, settle, switchLanguage } from './support/shell.ts';
import { signIn } from './support/sign-in.ts';
import { setStorageItem } from './support/storage.ts';

const baseURL = inject('baseURL');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const MINUTE = 60_000;

/** Serves /meta.json with a build date the test changes, and counts the requests. */
async function fakeDeployments(page: Page) {
  const state = { date: '2026-01-01T00:00:00.000Z', requests: 0 };
  await page.route('**/meta.json', async (route) => {
    state.requests += 1;
    await route.fulfill({ json: { date: state.date }, headers: { 'Cache-Control': 'no-store' } });
  });
  return state;
}

const toasts = (page: Page) => page.getByTestId('update-toast');

/**
 * Waits until the page's own requests have answered: moving the installed clock on by minutes while one is still
 * under way fires its 20-second time-out, a console error that has nothing to do with updates.
 */
const settleRequests = (page: Page) => page.waitForLoadState('networkidle');

describe('update checker: a newer deployment is offered as a refresh', () => {
  it('polls every minute, asks once, waits twice as long after Ignore, and reloads on Refresh', async () => {
    await withAppPage(browser, baseURL, 'update-toast', async (app) => {
      const { page } = app;
      await page.clock.install();
      const meta = await fakeDeployments(page);
      await signIn(page, 'member');
      await expect.poll(() => meta.requests).toBe(1);
      await settleRequests(page);

      await page.clock.runFor(MINUTE);
      await expect.poll(() => meta.requests).toBe(2);
      expect(await toasts(page).count()).toBe(0);

      meta.date = '2026-02-01T00:00:00.000Z';
      await page.clock.runFor(MINUTE);
      await toasts(page).getByText('新しいバージョンがあります').waitFor();
      expect(await toasts(page).count()).toBe(1);
      await settle(page);
      await app.screenshot('update-toast-ja');

      // While asking, polling stops.
      const asked = meta.requests;
      await page.clock.runFor(3 * MINUTE);
      expect(meta.requests).toBe(asked);

      // Ignore: the next check comes after 2 minutes instead of 1.
      await page.getByTestId('update-ignore').click();
      await toasts(page).waitFor({ state: 'hidden' });
      await page.clock.runFor(MINUTE);
      expect(meta.requests).toBe(asked);
      await page.clock.runFor(MINUTE);
      await expect.poll(() => meta.requests).toBe(asked + 1);
      await toasts(page).waitFor();
      expect(await toasts(page).count()).toBe(1);

      await switchLanguage(page, 'en');
      await toasts(page).getByText('A new version is available').waitFor();
      await settle(page);
      await app.screenshot('update-toast-en');

      await Promise.all([page.waitForEvent('load'), page.getByTestId('update-refresh').click()]);
      await page.getByTestId('organizations-list').waitFor();
      expect(await toasts(page).count()).toBe(0);
      expect(app.consoleErrors).toEqual([]);
    });
  });

  it('stays silent and stops when the first check fails', async () => {
    await withAppPage(browser, baseURL, 'update-first-fails', async (app) => {
      const { page } = app;
      await page.clock.install();
      let requests = 0;
      await page.route('**/meta.json', async (route) => {
        requests += 1;
        await route.fulfill({ status: 503, body: 'Service Unavailable' });
      });
      await signIn(page, 'member');
      await expect.poll(() => requests).toBe(1);
      await settleRequests(page);
      await page.clock.runFor(5 * MINUTE);
      expect(requests).toBe(1);
      expect(await toasts(page).count()).toBe(0);
      // The 503 itself is the browser's own console line; the app adds nothing.
      expect(app.consoleErrors.filter((message) => !message.includes('503'))).toEqual([]);
    });
  });

  it('shows the reload page when a screen of an older build can no longer be loaded', async () => {
    await withAppPage(browser, baseURL, 'update-fallback', async (app) => {
      const { page } = app;
      await signIn(page, 'member');
      // As after a deployment: the chunk this page was built with is gone.
      await page.route('**/assets/MyAccountPage-*.js', (route) => route.abort());
      await openUserMenu(page);
      await page.getByTestId('user-menu-account').click();

      const fallback = page.getByTestId('update-fallback');
      await fallback.waitFor();
      const text = await fallback.innerText();
      expect(text).toContain('ブラウザを再読み込みするか、こちらをクリックしてください。');
      expect(text).toContain('問題が解決しない場合は、サポートにお問い合わせください。');
      await app.screenshot('update-fallback-ja');

      // Reloading with the chunk still missing shows the page again, here in English.
      await setStorageItem(page, 'localStorage', 'language', 'en');
      await Promise.all([page.waitForEvent('load'), page.getByTestId('reload-link').click()]);
      await fallback.waitFor();
      expect(await fallback.innerText()).toContain('Please reload the browser window or click here.');
      expect(await fallback.innerText()).toContain('Contact the support if the problem persists.');
      await app.screenshot('update-fallback-en');

      // Once the files are there again, "click here" brings the screen back.
      await page.unroute('**/assets/MyAccountPage-*.js');
      await Promise.all([page.waitForEvent('load'), page.getByTestId('reload-link').click()]);
      await page.getByTestId('account-details').waitFor();
      const unexpected = app.consoleErrors.filter(
        (message) => !/MyAccountPage|dynamically imported module|net::ERR_FAILED/.test(message),
      );
      expect(unexpected).toEqual([]);
    });
  });
});
