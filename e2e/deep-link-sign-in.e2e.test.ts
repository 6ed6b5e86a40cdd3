import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, withAppPage } from './support/browser.ts';
import { settle, switchLanguage } from './support/shell.ts';
import { demoAccount, submitLoginForm, waitForLoginPage } from './support/sign-in.ts';
import { presetLocalStorage } from './support/storage.ts';

const baseURL = inject('baseURL');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

describe('deep link: a signed-out visitor signs in and lands on the address they opened', () => {
  it('returns to /my-account?tab=x after the login page and shows the account', async () => {
    await withAppPage(browser, baseURL, 'deep-link', async (app) => {
      const { page } = app;
      await page.goto('/my-account?tab=x');
      await waitForLoginPage(page);
      expect(page.url()).not.toContain('/my-account');
      await app.screenshot('sign-in-page-ja');

      await submitLoginForm(page, 'member');
      const landed = new URL(page.url());
      expect(`${landed.pathname}${landed.search}`).toBe('/my-account?tab=x');

      const details = page.getByTestId('account-details');
      await details.waitFor();
      const { email } = demoAccount('member');
      expect(await details.innerText()).toContain(email);
      expect(await page.getByTestId('account-name').innerText()).toBe('Mina Kobayashi');
      expect(await page.getByTestId('account-id').innerText()).toMatch(/^[0-9a-f-]{36}$/);
      expect(await page.getByRole('heading', { level: 2, name: 'アカウント' }).count()).toBe(1);
      expect(await details.innerText()).toContain('所属');
      await settle(page);
      await app.screenshot('my-account-ja');

      await switchLanguage(page, 'en');
      await page.getByRole('heading', { level: 2, name: 'My account' }).waitFor();
      expect(await details.innerText()).toContain('Affiliation');
      expect(await details.innerText()).toContain('Sakura Central Hospital, Department of Pathology');
      await settle(page);
      await app.screenshot('my-account-en');
      expect(app.consoleErrors).toEqual([]);
    });
  });

  it('shows the sign-in page in English when the app is in English', async () => {
    await withAppPage(browser, baseURL, 'deep-link-en', async (app) => {
      const { page } = app;
      await presetLocalStorage(page, 'language', 'en');
      await page.goto('/cases');
      await waitForLoginPage(page);
      expect(await page.locator('html').getAttribute('lang')).toBe('en');
      await app.screenshot('sign-in-page-en');

      await submitLoginForm(page, 'admin');
      await page.waitForURL('**/cases');
      await page.getByTestId('case-link').first().waitFor();
      expect(await page.getByTestId('nav-cases').getAttribute('aria-current')).toBe('page');
      expect(app.consoleErrors).toEqual([]);
    });
  });

  it('offers to sign in again after the user cancels on the sign-in page', async () => {
    await withAppPage(browser, baseURL, 'sign-in-cancelled', async (app) => {
      const { page } = app;
      await page.goto('/cases?page=2');
      await waitForLoginPage(page);
      await page.getByRole('link', { name: 'キャンセル' }).click();
      const refused = page.getByTestId('sign-in-refused');
      await refused.getByText('サインインがキャンセルされました').waitFor();
      await app.screenshot('sign-in-cancelled-ja');

      await page.getByTestId('sign-in-again').click();
      await submitLoginForm(page, 'member');
      const landed = new URL(page.url());
      expect(`${landed.pathname}${landed.search}`).toBe('/cases?page=2');
      expect(app.consoleErrors).toEqual([]);
    });
  });

  it('logs an unauthentic callback and goes home', async () => {
    await withAppPage(browser, baseURL, 'invalid-callback', async (app) => {
      const { page } = app;
      await page.goto('/auth/callback?code=forged&state=forged');
      // Home is for signed-in users only, so the visitor ends up on the sign-in page.
      await waitForLoginPage(page);
      expect(app.consoleErrors.some((message) => message.includes('Unauthentic callback detected'))).toBe(true);
    });
  });
});
