import type { Notice } from '@pathology/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_GROUPS } from '../apps/server/src/db/seed/demo-groups.ts';
import { slidePath } from '../apps/server/test/testdata.ts';
import { launchBrowser, withAppPage } from './support/browser.ts';
import { apiCall } from './support/case-api.ts';
import { deleteCasesAsSuper } from './support/case-cleanup.ts';
import { sidewaysOverflow, truncatedLabels } from './support/layout.ts';
import { settle, switchLanguage, waitForShell, type Language } from './support/shell.ts';
import { signIn } from './support/sign-in.ts';
import { createCase, uploadImage, waitUntilAvailable } from './support/slides.ts';

const baseURL = inject('baseURL');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const LANGUAGES: readonly Language[] = ['ja', 'en'];

const main = (page: Page) => page.locator('main');

describe('text fits at 1366×768', () => {
  for (const language of LANGUAGES) {
    it(`cuts no badge or button text on the case list, users and groups (${language})`, async () => {
      await withAppPage(
        browser,
        baseURL,
        `fit-1366-${language}`,
        async (app) => {
          const { page } = app;
          await signIn(page, 'admin', '/organizations');
          await waitForShell(page);
          await switchLanguage(page, language);

          await page.getByTestId('nav-cases').click();
          await page.locator('[data-testid="case-table"][aria-busy="false"]').waitFor();
          await page.getByTestId('case-row').first().waitFor();
          await settle(page);
          await app.screenshot(`fit-1366-case-list-${language}`);
          expect(await truncatedLabels(main(page))).toEqual([]);

          await page.getByTestId('nav-users').click();
          await page.getByTestId('users-table').waitFor();
          await settle(page);
          await app.screenshot(`fit-1366-users-${language}`);
          expect(await truncatedLabels(main(page))).toEqual([]);
          // Row actions stay on screen: the table scrolls inside the page rather than pushing them off.
          expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);

          await page.getByTestId('nav-organizations').click();
          await page.getByTestId('organization-card').first().waitFor();
          await settle(page);
          await app.screenshot(`fit-1366-groups-${language}`);
          expect(await truncatedLabels(main(page))).toEqual([]);
          const cutNames = await page
            .getByTestId('organization-name')
            .evaluateAll((names) =>
              names.filter((name) => name.scrollHeight > name.clientHeight + 1).map((name) => name.textContent),
            );
          expect(cutNames).toEqual([]);
          expect(app.consoleErrors).toEqual([]);
        },
        { viewport: { width: 1366, height: 768 } },
      );
    });
  }
});

/** The header's user menu sits wholly inside the window: nothing in the header pushes it off. */
async function expectUserMenuInView(page: Page, width: number): Promise<void> {
  const box = await page.getByTestId('user-menu-button').boundingBox();
  expect(box).not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(width);
}

describe('breakpoints (part 3 §9)', () => {
  let caseId: string | undefined;
  let imageId: string | undefined;

  beforeAll(async () => {
    await withAppPage(browser, baseURL, 'breakpoint-slide', async ({ page }) => {
      await signIn(page, 'member', '/organizations');
      await waitForShell(page);
      const created = await createCase(page, `E2E-BREAKPOINT-${Date.now()}`, DEMO_GROUPS.central.name);
      caseId = created.id;
      const image = await waitUntilAvailable(
        page,
        await uploadImage(page, created.id, slidePath('CMU-1-Small-Region.svs')),
      );
      imageId = image.id;
    });
  });

  afterAll(async () => {
    if (caseId) await deleteCasesAsSuper(browser, baseURL, [{ id: caseId }]);
  });

  for (const width of [320, 768, 1366]) {
    it(`lays out the case list, the case form and the viewer at ${width} px without sideways scrolling`, async () => {
      await withAppPage(
        browser,
        baseURL,
        `breakpoint-${width}`,
        async (app) => {
          const { page } = app;
          await signIn(page, 'member', '/cases');
          await page.locator('[data-testid="case-table"][aria-busy="false"]').waitFor();
          await settle(page);
          await app.screenshot(`breakpoint-${width}-case-list`);
          // Below md the navbar folds behind the burger; from md it stays open beside the page.
          expect(
            await page.getByRole('button', { name: /ナビゲーションの切り替え|Toggle navigation/ }).isVisible(),
          ).toBe(width < 768);
          await expectUserMenuInView(page, width);
          expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);

          await page.getByTestId('create-case').click();
          await page.getByTestId('case-create-form').waitFor();
          await settle(page);
          await app.screenshot(`breakpoint-${width}-case-form`);
          expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);

          await page.goto(`/cases/${caseId}/images/${imageId}`);
          await page.locator('[data-testid="viewer-canvas"][data-state="ready"]').waitFor({ timeout: 30_000 });
          await settle(page, 800);
          await app.screenshot(`breakpoint-${width}-viewer`);
          await expectUserMenuInView(page, width);
          expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
          // The image's name and the next-image button stay readable and reachable at every width.
          const name = await page.getByTestId('viewer-title').boundingBox();
          expect(name!.width).toBeGreaterThan(100);
          const next = await page.getByTestId('viewer-next').boundingBox();
          expect(next!.x + next!.width).toBeLessThanOrEqual(width);
          const canvas = await page.getByTestId('viewer-canvas').boundingBox();
          expect(canvas!.width).toBeGreaterThan(width / 2);
          expect(canvas!.height).toBeGreaterThan(200);
        },
        { viewport: { width, height: 800 } },
      );
    });
  }
});

describe('date fields', () => {
  for (const language of LANGUAGES) {
    it(`start the week on Monday and save the picked date (${language})`, async () => {
      await withAppPage(browser, baseURL, `date-field-${language}`, async (app) => {
        const { page } = app;
        await signIn(page, 'super', '/organizations');
        await waitForShell(page);
        await switchLanguage(page, language);
        await page.getByTestId('nav-noticePosts').click();
        await page.getByTestId('notice-add').click();
        await page.getByTestId('notice-form').waitFor();
        const title = `Date field ${language} ${Date.now()}`;
        await page.getByTestId('notice-title').fill(title);
        await page.getByTestId('notice-overview').fill('Picked from the calendar.');
        await page.locator('.ProseMirror').click();
        await page.keyboard.type('Body');

        await page.getByTestId('notice-date').click();
        const calendar = page.locator('.mantine-Popover-dropdown').filter({ has: page.locator('table') });
        await calendar.waitFor();
        const weekdays = await calendar.locator('thead th').allInnerTexts();
        expect(weekdays).toEqual(
          language === 'ja' ? ['月', '火', '水', '木', '金', '土', '日'] : ['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'],
        );
        await settle(page);
        await app.screenshot(`date-field-calendar-${language}`);
        await calendar.locator('tbody button:not([data-outside])').getByText('15', { exact: true }).click();
        const shown = await page.getByTestId('notice-date').inputValue();
        expect(shown).toMatch(/^\d{4}-\d{2}-15$/);

        await page.getByTestId('notice-save').click();
        await page.waitForURL(/\/notices\/posts\/[0-9a-f-]{36}$/);
        const id = new URL(page.url()).pathname.split('/').pop() ?? '';
        const saved = (await apiCall(page, 'GET', `/notices/posts/${id}`)).json as Notice;
        expect(saved.title).toBe(title);
        const openAt = new Date(saved.openAt);
        // The browser runs in Asia/Tokyo: the local date of the saved moment is the picked one.
        const local = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' }).format(openAt);
        expect(local).toBe(shown);
        await apiCall(page, 'DELETE', `/notices/posts/${id}`);
      });
    });
  }
});
