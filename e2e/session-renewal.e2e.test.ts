import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, withAppPage } from './support/browser.ts';
import { openUserMenu, settle, switchLanguage } from './support/shell.ts';
import { accessToken, signInThroughApp } from './support/sign-in.ts';

const baseURL = inject('baseURL');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const MINUTE = 60_000;

async function meStatus(page: Page, token: string): Promise<number> {
  const response = await page.request.get('/api/v1/accounts/me', { headers: { Authorization: `Bearer ${token}` } });
  return response.status();
}

describe('session: access tokens (10 minutes) are renewed in the background; an expired session offers popup sign-in', () => {
  it('renews before expiry, and signs in again in a popup without leaving the page', async () => {
    await withAppPage(browser, baseURL, 'session-renewal', async (app) => {
      const { page } = app;
      await page.clock.install();
      const badgeCalls: string[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === '/api/v1/notices/badges') badgeCalls.push(request.url());
      });
      await signInThroughApp(page, 'member');
      const first = await accessToken(page);
      const badgeCallsAtSignIn = badgeCalls.length;

      // A minute before the token runs out, the refresh token buys a new one: no page change, no sign-in page.
      await page.clock.runFor(9.5 * MINUTE);
      await expect.poll(() => accessToken(page), { timeout: 15_000 }).not.toBe(first);
      const renewed = await accessToken(page);
      expect(await meStatus(page, renewed)).toBe(200);
      expect(new URL(page.url()).pathname).toBe('/organizations');
      // Meanwhile the bell asked for its badge every 3 minutes (part 3 §9).
      expect(badgeCalls.length - badgeCallsAtSignIn).toBeGreaterThanOrEqual(3);

      // The provider cannot be reached when the next renewal is due: the token expires and the app says so.
      await page.route('**/oidc/token', (route) => route.abort());
      await page.clock.runFor(11 * MINUTE);
      const notice = page.getByTestId('session-expired');
      await notice.waitFor();
      expect(await notice.innerText()).toContain('セッションの有効期限が切れました');
      await settle(page);
      await app.screenshot('session-expired-ja');
      await switchLanguage(page, 'en');
      await notice.getByText('Your session has expired').waitFor();
      await settle(page);
      await app.screenshot('session-expired-en');

      // Popup sign-in: the provider still knows the browser, so the popup completes at once and closes.
      await page.unroute('**/oidc/token');
      const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByTestId('session-sign-in').click()]);
      await popup.waitForEvent('close', { timeout: 15_000 });
      await notice.waitFor({ state: 'hidden' });
      const afterPopup = await accessToken(page);
      expect(afterPopup).not.toBe(renewed);
      expect(await meStatus(page, afterPopup)).toBe(200);

      // Still the same page, and the API answers with the new token.
      expect(new URL(page.url()).pathname).toBe('/organizations');
      await openUserMenu(page);
      await page.getByTestId('user-menu-account').click();
      await page.getByTestId('account-details').waitFor();
      const unexpected = app.consoleErrors.filter(
        (message) => !/oidc\/token|net::ERR_FAILED|Failed to fetch/.test(message),
      );
      expect(unexpected).toEqual([]);
    });
  });
});
