import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, withAppPage, type AppPage } from './support/browser.ts';
import { openUserMenu, settle, switchLanguage, waitForShell, type Language } from './support/shell.ts';
import { signIn } from './support/sign-in.ts';

const baseURL = inject('baseURL');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const TEXT = {
  ja: {
    notice: 'お知らせ',
    mention: 'メンション',
    allNotices: 'すべてのお知らせ',
    allMentions: 'すべてのメンション',
    noUploads: '進行中のアップロードはありません',
    statement: 'AI の利用について',
    accepted: ['医学の教育および研修', '物理学および化学の研究'],
    excluded: ['人または動物の疾病の予防、診断および治療', '人または動物の身体の構造または機能に影響を及ぼすこと'],
    notFound: 'お探しのページは見つかりませんでした。',
  },
  en: {
    notice: 'Notice',
    mention: 'Mention',
    allNotices: 'All notices',
    allMentions: 'All mentions',
    noUploads: 'No uploads in progress',
    statement: 'AI use statement',
    accepted: ['Medical education and training', 'Research in physics and chemistry'],
    excluded: [
      'Prevention, diagnosis and treatment of diseases in humans and animals',
      'Affecting the physical structure or function of humans and animals',
    ],
    notFound: 'Sorry, the page you requested was not found.',
  },
} as const;

async function checkBell(app: AppPage, language: Language) {
  const { page } = app;
  const text = TEXT[language];
  await page.getByTestId('notifications-button').click();
  const popover = page.getByTestId('notifications-popover');
  await popover.waitFor();
  expect(await page.getByTestId('notifications-tab-notice').innerText()).toBe(text.notice);
  // The demo's unread notices, or the empty state (notices.e2e and the unit tests check both in detail).
  await popover.locator('[data-testid="popover-notice"], [data-testid="notifications-empty-notice"]').first().waitFor();
  expect(await popover.getByRole('link', { name: text.allNotices }).getAttribute('href')).toBe('/notices');
  await settle(page);
  await app.screenshot(`shell-bell-notice-${language}`);

  await page.getByTestId('notifications-tab-mention').click();
  await popover.locator('[data-testid="mention-item"], [data-testid="notifications-empty-mention"]').first().waitFor();
  expect(await popover.getByRole('link', { name: text.allMentions }).getAttribute('href')).toBe('/mentions');
  await app.screenshot(`shell-bell-mention-${language}`);
  await page.keyboard.press('Escape');
  await popover.waitFor({ state: 'hidden' });
}

async function checkUploads(app: AppPage, language: Language) {
  const { page } = app;
  await page.getByTestId('uploads-button').click();
  const popover = page.getByTestId('uploads-popover');
  await popover.waitFor();
  expect(await popover.innerText()).toContain(TEXT[language].noUploads);
  await settle(page);
  await app.screenshot(`shell-uploads-${language}`);
  await page.keyboard.press('Escape');
  await popover.waitFor({ state: 'hidden' });
}

async function checkStatement(app: AppPage, language: Language) {
  const { page } = app;
  const text = TEXT[language];
  await openUserMenu(page);
  await settle(page);
  await app.screenshot(`shell-user-menu-${language}`);
  await page.getByTestId('user-menu-ai-statement').click();
  const dialog = page.getByRole('dialog', { name: text.statement });
  await dialog.waitFor();
  expect(await page.getByTestId('ai-statement-accepted').locator('li').allInnerTexts()).toEqual(text.accepted);
  expect(await page.getByTestId('ai-statement-excluded').locator('li').allInnerTexts()).toEqual(text.excluded);
  await settle(page);
  await app.screenshot(`shell-ai-statement-${language}`);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
}

async function checkNotFound(app: AppPage, language: Language) {
  const { page } = app;
  await page.goto('/no-such-page');
  await page.getByText(TEXT[language].notFound, { exact: true }).waitFor();
  await waitForShell(page);
  await app.screenshot(`shell-not-found-${language}`);
  await page.getByTestId('not-found').getByRole('link').click();
  await page.waitForURL('**/organizations');
}

async function helpLink(page: Page) {
  const link = page.getByTestId('help-link');
  return { href: await link.getAttribute('href'), target: await link.getAttribute('target') };
}

describe('app shell: header, popovers, user menu and language', () => {
  it('offers help, notifications, uploads, the AI statement and the language switch, in ja and en', async () => {
    await withAppPage(browser, baseURL, 'app-shell', async (app) => {
      const { page } = app;
      await signIn(page, 'admin');
      await page.waitForURL('**/organizations');
      expect(await page.locator('html').getAttribute('lang')).toBe('ja');
      expect(await page.getByTestId('user-menu-name').innerText()).toBe('Akira Tanaka');
      // No HELP_URL on this server: no help icon, rather than one that leads nowhere.
      expect(await page.getByTestId('help-link').count()).toBe(0);

      // The whole shell works from the keyboard: the bell opens with Enter.
      await page.getByTestId('notifications-button').focus();
      await page.keyboard.press('Enter');
      await page.getByTestId('notifications-popover').waitFor();
      await page.keyboard.press('Escape');

      for (const language of ['ja', 'en'] as const) {
        if (language === 'en') await switchLanguage(page, 'en');
        await checkBell(app, language);
        await checkUploads(app, language);
        await checkStatement(app, language);
        await checkNotFound(app, language);
      }

      // The choice is saved: a new visit starts in English.
      await page.reload();
      await page.getByTestId('nav-organizations').getByText('Groups').waitFor();
      expect(await page.locator('html').getAttribute('lang')).toBe('en');
      await switchLanguage(page, 'ja');
      expect(await page.getByTestId('nav-organizations').innerText()).toBe('グループ');
      expect(app.consoleErrors).toEqual([]);
    });
  });

  it("links the help icon to the operator's help pages when HELP_URL names them", async () => {
    await withAppPage(browser, baseURL, 'app-shell-help', async (app) => {
      const { page } = app;
      const helpUrl = 'https://help.hospital.example/pathology';
      // The setting as the server gives it (conventions.test.ts reads it from HELP_URL).
      await page.route('**/api/v1/auth/config', async (route) => {
        const response = await route.fetch();
        await route.fulfill({ response, json: { ...((await response.json()) as object), helpUrl } });
      });
      await signIn(page, 'admin');
      await page.waitForURL('**/organizations');
      await page.getByTestId('help-link').waitFor();
      expect(await helpLink(page)).toEqual({ href: helpUrl, target: '_blank' });
      expect(await page.getByTestId('help-link').getAttribute('aria-label')).toBe(
        'ヘルプセンター（新しいタブで開きます）',
      );
    });
  });

  it('follows the bell to the full lists', async () => {
    await withAppPage(browser, baseURL, 'app-shell-links', async (app) => {
      const { page } = app;
      await signIn(page, 'member');
      await page.getByTestId('notifications-button').click();
      await page.getByTestId('notifications-popover').getByRole('link', { name: 'すべてのお知らせ' }).click();
      await page.waitForURL('**/notices');
      await page.getByTestId('notifications-popover').waitFor({ state: 'hidden' });
      expect(app.consoleErrors).toEqual([]);
    });
  });
});
