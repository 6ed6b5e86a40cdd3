import type { Browser, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, withAppPage } from './support/browser.ts';
import { switchLanguage } from './support/shell.ts';
import { signInThroughApp } from './support/sign-in.ts';

const baseURL = inject('baseURL');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

describe('smoke: the built web app is served by the server and talks to it', () => {
  it('signs in, lands on the groups page in Japanese with the server status, and switches to English', async () => {
    await withAppPage(browser, baseURL, 'smoke', async (app) => {
      const { page } = app;
      const scripts: Promise<string>[] = [];
      const collectScript = (response: Response) => {
        if (response.request().resourceType() === 'script') scripts.push(response.text());
      };
      page.on('response', collectScript);
      await signInThroughApp(page, 'member');
      await page.waitForURL('**/organizations');
      const database = page.getByTestId('status-database');
      await database.getByText('正常').waitFor();
      page.off('response', collectScript);
      // The notice editor's libraries (tiptap, ProseMirror: ≈600 kB) load with its route, not with every first page.
      expect((await Promise.all(scripts)).filter((script) => script.includes('ProseMirror'))).toEqual([]);
      expect(await page.locator('html').getAttribute('lang')).toBe('ja');
      expect(await page.getByRole('heading', { level: 2 }).innerText()).toBe('グループ');
      expect(await database.getAttribute('data-ok')).toBe('true');
      expect(await page.getByTestId('status-queue').getAttribute('data-ok')).toBe('true');
      await app.screenshot('smoke-organizations-ja');

      await switchLanguage(page, 'en');
      await database.getByText('Operational').waitFor();
      expect(await page.getByRole('heading', { level: 2 }).innerText()).toBe('Groups');
      await page.getByTestId('nav-cases').click();
      await page.waitForURL('**/cases');
      await page.getByTestId('case-link').first().waitFor();
      expect(await page.getByRole('heading', { level: 2 }).innerText()).toBe('Cases');
      expect(await page.getByTestId('nav-cases').getAttribute('aria-current')).toBe('page');
      await app.screenshot('smoke-cases-en');
      expect(app.consoleErrors).toEqual([]);
    });
  });
});
