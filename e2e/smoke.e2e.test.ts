import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, openAppPage } from './support/browser.ts';

const baseURL = inject('baseURL');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

describe('smoke: the built web app is served by the server and talks to it', () => {
  it('lands on the groups page in Japanese, shows the server status, and switches to English', async () => {
    const app = await openAppPage(browser, baseURL);
    const { page } = app;
    try {
      await page.goto('/');
      await page.waitForURL('**/organizations');
      const database = page.getByTestId('status-database');
      await database.getByText('正常').waitFor();
      expect(await page.locator('html').getAttribute('lang')).toBe('ja');
      expect(await page.getByRole('heading', { level: 2 }).innerText()).toBe('グループ');
      expect(await database.innerText()).toContain('データベース');
      expect(await database.getAttribute('data-ok')).toBe('true');
      expect(await page.getByTestId('status-queue').getAttribute('data-ok')).toBe('true');
      await app.screenshot('01-organizations-ja');

      await page.getByTestId('language-switch').getByText('English', { exact: true }).click();
      await database.getByText('Operational').waitFor();
      expect(await page.locator('html').getAttribute('lang')).toBe('en');
      expect(await page.getByRole('heading', { level: 2 }).innerText()).toBe('Groups');
      expect(await database.innerText()).toContain('Database');
      expect(await page.getByTestId('nav-cases').innerText()).toBe('Cases');
      await app.screenshot('02-organizations-en');

      // The choice is remembered for the next visit.
      await page.reload();
      await database.getByText('Operational').waitFor();

      await page.getByTestId('nav-cases').click();
      await page.waitForURL('**/cases');
      await page.getByText('No cases yet').waitFor();
      expect(await page.getByTestId('nav-cases').getAttribute('aria-current')).toBe('page');
      await app.screenshot('03-cases-en');

      expect(app.consoleErrors).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('shows the not-found page for an unknown path, with a link home', async () => {
    const app = await openAppPage(browser, baseURL);
    const { page } = app;
    try {
      await page.goto('/no-such-page');
      await page.getByText('お探しのページは見つかりませんでした。').waitFor();
      await app.screenshot('04-not-found-ja');

      await page.getByTestId('language-switch').getByText('English', { exact: true }).click();
      await page.getByText('Sorry, the page you requested was not found.', { exact: true }).waitFor();
      await app.screenshot('05-not-found-en');

      await page.getByRole('link', { name: 'Back to the home page' }).click();
      await page.waitForURL('**/organizations');

      // The identity provider's logout return address leads home as well.
      await page.goto('/signed-out');
      await page.waitForURL('**/organizations');

      expect(app.consoleErrors).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
