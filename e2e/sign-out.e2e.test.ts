import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, withAppPage } from './support/browser.ts';
import { openUserMenu, switchLanguage } from './support/shell.ts';
import { signInThroughApp, submitLoginForm, waitForLoginPage } from './support/sign-in.ts';
import { storageKeys } from './support/storage.ts';

const baseURL = inject('baseURL');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

describe('sign out: the provider ends the session and the app returns to the sign-in page', () => {
  it('passes /signed-out, lands on / and so on the sign-in page, in the language of the app', async () => {
    await withAppPage(browser, baseURL, 'sign-out', async (app) => {
      const { page } = app;
      await signInThroughApp(page, 'owner', '/cases');
      await switchLanguage(page, 'en');

      const visited: string[] = [];
      page.on('framenavigated', (frame) => {
        if (frame === page.mainFrame()) visited.push(new URL(frame.url()).pathname);
      });
      await openUserMenu(page);
      await page.getByTestId('user-menu-sign-out').click();
      await waitForLoginPage(page);

      expect(visited).toContain('/signed-out');
      // The sign-in page says why the user is there.
      expect(await page.getByRole('status').innerText()).toBe('You have signed out of Pathology slides.');
      await app.screenshot('signed-out-sign-in-page-en');
      expect(await page.locator('html').getAttribute('lang')).toBe('en');
      const storedUsers = (await storageKeys(page, 'sessionStorage')).filter((key) => key.startsWith('oidc.user:'));
      expect(storedUsers).toEqual([]);

      // The provider's session is over too: a new visit asks for the password again (with no stale notice), then goes home.
      await page.goto(baseURL);
      await waitForLoginPage(page);
      expect(await page.getByRole('status').count()).toBe(0);
      await submitLoginForm(page, 'member');
      await page.waitForURL('**/organizations');
      expect(await page.getByTestId('user-menu-name').innerText()).toBe('Mina Kobayashi');
      expect(app.consoleErrors).toEqual([]);
    });
  });

  it('signs out from the address /logout too, and a visitor who is not signed in goes home from it', async () => {
    await withAppPage(browser, baseURL, 'logout-path', async (app) => {
      const { page } = app;
      await signInThroughApp(page, 'member', '/cases');
      await switchLanguage(page, 'en');

      const visited: string[] = [];
      page.on('framenavigated', (frame) => {
        if (frame === page.mainFrame()) visited.push(new URL(frame.url()).pathname);
      });
      await page.goto('/logout');
      await waitForLoginPage(page);

      expect(visited).toContain('/signed-out');
      expect(await page.getByRole('status').innerText()).toBe('You have signed out of Pathology slides.');
      expect(await page.getByTestId('not-found').count()).toBe(0);
      const storedUsers = (await storageKeys(page, 'sessionStorage')).filter((key) => key.startsWith('oidc.user:'));
      expect(storedUsers).toEqual([]);

      // Signed out, /logout leads home and so to sign-in; after it the app is home, not signed out again.
      await page.goto('/logout');
      await submitLoginForm(page, 'member');
      await page.waitForURL('**/organizations');
      expect(await page.getByTestId('user-menu-name').innerText()).toBe('Mina Kobayashi');
      expect(app.consoleErrors).toEqual([]);
    });
  });
});
