import { defaultMenu, type AccountRoles } from '@pathology/contract';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, withAppPage } from './support/browser.ts';
import { switchLanguage } from './support/shell.ts';
import { accessToken, menuKeys, signIn, type DemoRole } from './support/sign-in.ts';

const baseURL = inject('baseURL');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/**
 * The menu table of spec part 1 §2 per demo account: Groups and Cases for everyone, Upload Files for members or
 * higher, Users for administrators (proprietors count), Contracts for proprietors and the provider's employees (who
 * create contracts), and the CSV and notice entries for
 * the super user, who holds every role.
 */
const EXPECTED: Record<DemoRole, string[]> = {
  readOnly: ['organizations', 'cases'],
  member: ['organizations', 'cases', 'bulkUpload'],
  admin: ['organizations', 'cases', 'bulkUpload', 'users'],
  owner: ['organizations', 'cases', 'bulkUpload', 'users', 'contracts'],
  staff: ['organizations', 'cases', 'bulkUpload', 'contracts'],
  super: ['organizations', 'cases', 'bulkUpload', 'users', 'contracts', 'importCsv', 'exportCsv', 'noticePosts'],
};

const JAPANESE_LABELS: Record<string, string> = {
  organizations: 'グループ',
  cases: '症例',
  bulkUpload: 'ファイルのアップロード',
  users: 'ユーザー',
  contracts: '契約',
  importCsv: 'CSV インポート',
  exportCsv: 'CSV エクスポート',
  noticePosts: 'お知らせ投稿',
};

describe('menus by role: each demo account signs in through the login page and sees its menu', () => {
  it.each(Object.entries(EXPECTED) as [DemoRole, string[]][])('%s', async (role, expected) => {
    await withAppPage(browser, baseURL, `menu-${role}`, async (app) => {
      const { page } = app;
      await signIn(page, role);
      await page.waitForURL('**/organizations');
      expect(await menuKeys(page)).toEqual(expected);
      for (const key of expected) {
        expect(await page.getByTestId(`nav-${key}`).innerText()).toBe(JAPANESE_LABELS[key]);
      }
      // Nothing is queued in this browser, so neither badge shows.
      expect(await page.locator('[data-testid^="nav-badge-"]').count()).toBe(0);

      // The server's own view of the roles gives the same menu.
      const response = await page.request.get('/api/v1/accounts/roles', {
        headers: { Authorization: `Bearer ${await accessToken(page)}` },
      });
      expect(response.status()).toBe(200);
      const roles = (await response.json()) as AccountRoles;
      expect(defaultMenu(roles.checks).map((item) => item.key)).toEqual(expected);

      await page.getByTestId('organizations-list').waitFor();
      await app.screenshot(`menu-${role}-ja`);
      if (role === 'super' || role === 'readOnly') {
        await switchLanguage(page, 'en');
        expect(await page.getByTestId('nav-organizations').innerText()).toBe('Groups');
        await app.screenshot(`menu-${role}-en`);
      }

      // Screens the role may not open are not found, whether or not they exist yet.
      if (!expected.includes('users')) {
        await page.goto('/users');
        await page.getByTestId('not-found').waitFor();
      }
      expect(app.consoleErrors).toEqual([]);
    });
  });
});
