import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser, withAppPage } from './support/browser.ts';
import { findTwoTagSearch, searchCasesApi, withSampleImages } from './support/case-list-api.ts';
import type { CaseSearchResponse } from '@pathology/contract';
import { settle, switchLanguage, waitForShell, type Language } from './support/shell.ts';
import { signIn } from './support/sign-in.ts';
import { placeholderFits, textContrast } from './support/layout.ts';
import { getStorageItem } from './support/storage.ts';

const baseURL = inject('baseURL');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const rows = (page: Page) => page.getByTestId('case-row');
const rangeText = (page: Page) => page.getByTestId('case-list-range').innerText();
const caseNumbers = (page: Page) => page.getByTestId('case-link').allInnerTexts();

async function waitForList(page: Page): Promise<void> {
  await page.locator('[data-testid="case-table"][aria-busy="false"]').waitFor();
  await page.getByTestId('case-list-range').waitFor();
}

/** What a Japanese input method types for ASCII before conversion: the full-width forms. */
const fullWidth = (text: string) =>
  text.replace(/[!-~]/g, (character) => String.fromCharCode(character.charCodeAt(0) + 0xfee0));

const caseNumberQuery = (page: Page) => new URL(page.url()).searchParams.get('query') ?? '';

async function pickOption(page: Page, testId: string, option: string | RegExp): Promise<void> {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function caseListJourney(page: Page, language: Language, shot: (name: string) => Promise<string>) {
  const text = {
    ja: { all: 'すべてのグループ', range40: /40 件中 1-10 件/, range20: /40 件中 1-20 件/ },
    en: { all: 'All groups', range40: /1-10 of 40/, range20: /1-20 of 40/ },
  }[language];

  await signIn(page, 'super', '/cases');
  await waitForShell(page);
  if (language === 'en') await switchLanguage(page, 'en');
  await waitForList(page);

  // The super user may list every group: all 40 demo cases.
  await pickOption(page, 'case-list-organization', text.all);
  // The page size is a saved setting: start from the default whatever an earlier run left.
  await pickOption(page, 'page-size', '10');
  await expect.poll(() => rangeText(page)).toMatch(text.range40);
  expect(await rows(page).count()).toBe(10);
  await page.getByTestId('case-list-pager').waitFor();

  // Page size 20, then reload: the URL keeps the same list.
  await pickOption(page, 'page-size', '20');
  await expect.poll(() => rangeText(page)).toMatch(text.range20);
  // Kept in this browser too (part 1 §3), beside the saved setting.
  expect(await getStorageItem(page, 'localStorage', 'casesPerPage')).toBe('20');
  const before = await caseNumbers(page);
  expect(before).toHaveLength(20);
  await page.reload();
  await waitForList(page);
  await expect.poll(() => caseNumbers(page)).toEqual(before);
  expect(new URL(page.url()).searchParams.get('limit')).toBe('20');

  // Sort by case number ascending (the order is a saved setting too, so click until the URL says so).
  const order = () =>
    JSON.parse(new URL(page.url()).searchParams.get('order') ?? '{}') as { field?: string; direction?: string };
  const clickSort = async () => {
    const previous = JSON.stringify(order());
    await page.getByTestId('sort-caseNumber').click();
    await expect.poll(() => JSON.stringify(order())).not.toBe(previous);
    await expect.poll(() => page.getByTestId('sort-caseNumber').getAttribute('data-order')).toBe(order().direction);
  };
  await clickSort();
  if (order().direction !== 'asc') await clickSort();
  expect(order()).toEqual({ field: 'caseNumber', direction: 'asc' });
  const sorted = await searchCasesApi(page, { limit: 20, order: { field: 'caseNumber', direction: 'asc' } });
  await expect.poll(() => caseNumbers(page)).toEqual(sorted.data.map((item) => item.caseNumber));
  await waitForList(page);

  // Expand the first row with images.
  const withImages = rows(page)
    .filter({ has: page.locator('[data-testid="status-count-uploaded"], a') })
    .first();
  await withImages.getByTestId('case-expand').click();
  await page.getByTestId('case-images-row').first().waitFor();
  expect(
    await page
      .getByTestId('case-images-row')
      .first()
      .locator('[data-testid="case-image"], [data-testid="case-images-empty"]')
      .count(),
  ).toBeGreaterThan(0);
  await settle(page);
  await shot(`case-list-expanded-${language}`);

  // Toggle the first row's star and back.
  const star = rows(page).first().getByTestId('star-toggle');
  const pressed = await star.getAttribute('aria-pressed');
  const flipped = pressed === 'true' ? 'false' : 'true';
  await star.click();
  await expect.poll(() => star.getAttribute('aria-pressed')).toBe(flipped);
  await star.click();
  await expect.poll(() => star.getAttribute('aria-pressed')).toBe(pressed);

  // A wildcard case number and two tags that must all be present.
  const { caseNumber, tags, expected } = await findTwoTagSearch(page);
  expect(expected.total).toBeGreaterThan(0);
  await page.getByTestId('open-search').click();
  await page.getByTestId('case-search-form').waitFor();
  await page.getByTestId('search-caseNumber').fill(caseNumber);
  await page.getByTestId('search-tags').click();
  await page.keyboard.type(`${tags[0]},${tags[1]},`);
  await page.keyboard.press('Escape');
  await expect
    .poll(() => page.getByTestId('search-tags-match').locator('input[value="contains-all"]').isChecked())
    .toBe(true);
  await settle(page);
  await shot(`case-list-search-dialog-${language}`);
  await page.getByTestId('search-submit').click();
  await waitForList(page);
  await expect.poll(() => rows(page).count()).toBe(expected.data.length);
  expect((await caseNumbers(page)).sort()).toEqual(expected.data.map((item) => item.caseNumber).sort());
  expect(await page.getByTestId('active-filter').count()).toBe(2);
  const query = new URL(page.url()).searchParams.get('query') ?? '';
  expect(query).toContain('contains-all');
  expect(query).toContain(caseNumber);
  await settle(page);
  await shot(`case-list-filtered-${language}`);

  // Reset: back to all 40 cases at 20 a page, then page size 10 again for the next journey.
  await page.getByTestId('filters-reset').click();
  await expect.poll(() => rangeText(page)).toMatch(text.range20);
  await page.getByTestId('active-filters').waitFor({ state: 'detached' });
  await pickOption(page, 'page-size', '10');
  await expect.poll(() => rangeText(page)).toMatch(text.range40);
  expect(await getStorageItem(page, 'localStorage', 'casesPerPage')).toBe('10');
  await settle(page);
  await shot(`case-list-${language}`);
}

describe('case list: filters in the URL, page size, expand, star, search and reset', () => {
  it('works in Japanese', async () => {
    await withAppPage(browser, baseURL, 'case-list-ja', async (app) => {
      await caseListJourney(app.page, 'ja', (name) => app.screenshot(name));
      expect(app.consoleErrors).toEqual([]);
    });
  });

  it('works in English', async () => {
    await withAppPage(browser, baseURL, 'case-list-en', async (app) => {
      await caseListJourney(app.page, 'en', (name) => app.screenshot(name));
      expect(app.consoleErrors).toEqual([]);
    });
  });

  it('shows a member their current group without the "all" option, with Create Case', async () => {
    await withAppPage(browser, baseURL, 'case-list-member', async (app) => {
      const { page } = app;
      await signIn(page, 'member', '/cases');
      await waitForShell(page);
      await waitForList(page);
      const current = await page.getByTestId('organization-picker').inputValue();
      expect(await page.getByTestId('case-list-organization').inputValue()).toBe(current);
      await page.getByTestId('case-list-organization').click();
      expect(await page.getByRole('option', { name: 'すべてのグループ' }).count()).toBe(0);
      await page.keyboard.press('Escape');
      await page.getByTestId('create-case').waitFor();
      expect(await page.getByTestId('case-transfer').count()).toBe(0);
      await settle(page);
      await app.screenshot('case-list-member-ja');
    });
  });

  it('expands a row to its images: viewable ones open, available ones select, status badges for the others', async () => {
    await withAppPage(browser, baseURL, 'case-list-images', async (app) => {
      const { page } = app;
      await page.route('**/api/v1/cases/search', async (route) => {
        const response = await route.fetch();
        await route.fulfill({ response, json: withSampleImages((await response.json()) as CaseSearchResponse) });
      });
      await signIn(page, 'super', '/cases');
      await waitForShell(page);
      await switchLanguage(page, 'en');
      await waitForList(page);
      const row = rows(page).first();
      await expect.poll(() => row.getAttribute('data-image-count')).toBe('6');
      await row.getByTestId('case-expand').click();
      const images = page.getByTestId('case-image');
      await expect.poll(() => images.count()).toBe(6);
      expect(await page.getByTestId('image-link').count()).toBe(3);
      expect(await images.nth(3).getByTestId('image-link').count()).toBe(1);
      expect(await images.nth(3).getByRole('checkbox').isDisabled()).toBe(true);
      expect(await page.getByTestId('image-status-uploaded').count()).toBe(1);
      expect(await page.getByTestId('image-status-processing').count()).toBe(1);
      expect(await images.nth(3).getByTestId('image-viewable-converting').innerText()).toBe(
        'Viewable — building pyramid 40 %',
      );
      expect(await page.getByTestId('image-status-process_failed').count()).toBe(1);
      expect(await images.nth(2).getByRole('checkbox').isDisabled()).toBe(true);
      expect(await images.nth(0).getByRole('checkbox').isDisabled()).toBe(false);
      const href = (await page.getByTestId('image-link').first().getAttribute('href')) ?? '';
      expect(href).toMatch(/^\/cases\/[0-9a-f-]+\/images\/00000000-0000-4000-8000-000000000001\?from=/);
      await images.nth(0).getByRole('checkbox').check();
      await page.getByTestId('selected-images').waitFor();
      await settle(page);
      await app.screenshot('case-list-images-en');
    });
  });

  it('shows 11-px status badges at AA contrast, and filters the case number as one types, in ja and en', async () => {
    await withAppPage(
      browser,
      baseURL,
      'case-list-badges',
      async (app) => {
        const { page } = app;
        // The first row with images in every state that needs attention, the second with ready ones only.
        await page.route('**/api/v1/cases/search', async (route) => {
          const response = await route.fetch();
          const { data, ...rest } = withSampleImages((await response.json()) as CaseSearchResponse);
          const [first, second, ...others] = data;
          const ready = second && {
            ...second,
            imageStatusCounts: {
              ...Object.fromEntries(Object.keys(second.imageStatusCounts).map((status) => [status, 0])),
              available: 1,
            } as typeof second.imageStatusCounts,
          };
          await route.fulfill({ response, json: { ...rest, data: [first, ready, ...others].filter(Boolean) } });
        });
        await signIn(page, 'super', '/cases');
        await waitForShell(page);
        await waitForList(page);
        const badges = [
          ...['available', 'uploaded', 'processing', 'process_failed'].map((status) =>
            page.getByTestId(`status-count-${status}`).first(),
          ),
          page.getByTestId('image-viewable-converting').first(),
        ];
        expect(await badges[0]!.innerText()).toBe('表示可 1');
        for (const badge of badges) {
          const { ratio, fontSize } = await textContrast(badge);
          expect(ratio, await badge.innerText()).toBeGreaterThanOrEqual(4.5);
          expect(fontSize, await badge.innerText()).toBeGreaterThanOrEqual(11);
        }
        const filter = page.getByTestId('case-number-filter');
        expect(await placeholderFits(filter)).toBe(true);
        await settle(page);
        await app.screenshot('case-list-badges-ja');

        // Japanese: the input method composes full-width text, then confirms it; no Enter, no leaving the field.
        const numbers = await caseNumbers(page);
        const wanted = numbers[numbers.length - 1]!;
        const typed = fullWidth(wanted.slice(0, -1));
        const ime = await page.context().newCDPSession(page);
        await filter.click();
        await ime.send('Input.imeSetComposition', {
          text: typed,
          selectionStart: typed.length,
          selectionEnd: typed.length,
        });
        // Unconfirmed kana are not a case number yet.
        await page.waitForTimeout(1_000);
        expect(caseNumberQuery(page)).not.toContain('caseNumber');
        await ime.send('Input.insertText', { text: typed });
        // Within 3 s of the conversion, the list shows only the matching cases, searched as ASCII.
        const prefix = wanted.slice(0, -1);
        await expect
          .poll(async () => (await caseNumbers(page)).every((shown) => shown.includes(prefix)), { timeout: 3_000 })
          .toBe(true);
        expect(await caseNumbers(page)).toContain(wanted);
        expect(caseNumberQuery(page)).toContain(JSON.stringify(prefix));
        await settle(page);
        await app.screenshot('case-list-filter-typed-ja');

        // English, typed on a keyboard: the list follows once typing pauses.
        await switchLanguage(page, 'en');
        await filter.fill('');
        await filter.press('Enter');
        await expect.poll(() => caseNumberQuery(page)).not.toContain('caseNumber');
        await waitForList(page);
        expect(await badges[0]!.innerText()).toBe('1 READY');
        const { ratio, fontSize } = await textContrast(badges[0]!);
        expect(ratio).toBeGreaterThanOrEqual(4.5);
        expect(fontSize).toBeGreaterThanOrEqual(11);
        expect(await placeholderFits(filter)).toBe(true);
        await settle(page);
        await app.screenshot('case-list-badges-en');
        await filter.pressSequentially(wanted);
        await expect.poll(() => caseNumbers(page), { timeout: 3_000 }).toEqual([wanted]);
        expect(app.consoleErrors).toEqual([]);
      },
      { viewport: { width: 1366, height: 768 } },
    );
  });
});
