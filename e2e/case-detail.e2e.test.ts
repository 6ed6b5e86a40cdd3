import type { Case } from '@pathology/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_COLLEAGUES } from '../apps/server/src/db/seed/demo-accounts.ts';
import { DEMO_GROUPS } from '../apps/server/src/db/seed/demo-groups.ts';
import { caseDetailHref } from '../apps/web/src/features/case-navigation/case-navigation.ts';
import { DEFAULT_LIST_SEARCH, type CaseListSearch } from '../apps/web/src/features/case-navigation/list-search.ts';
import { launchBrowser, openAppPage, withAppPage } from './support/browser.ts';
import { apiCall, dismissToasts, pickOption, searchCases, toast } from './support/case-api.ts';
import { settle, switchLanguage } from './support/shell.ts';
import { deleteCasesAsSuper } from './support/case-cleanup.ts';
import { demoAccount, signIn } from './support/sign-in.ts';
import { createCase } from './support/slides.ts';

const baseURL = inject('baseURL');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const caseIdOf = (page: Page) => new URL(page.url()).pathname.split('/')[2] ?? '';
const caseNumberText = (page: Page) => page.getByTestId('case-number').innerText();
const searchParam = (page: Page, name: string) => new URL(page.url()).searchParams.get(name);

describe('case detail: previous and next across a page boundary', () => {
  it('keeps the search position, fetches the neighbour page and moves the list page along', async () => {
    await withAppPage(browser, baseURL, 'case-detail-navigation', async (app) => {
      const { page } = app;
      await signIn(page, 'admin', '/organizations');
      // A filtered search (every case has a number), ten per list page, in a stable order.
      const from: CaseListSearch = {
        ...DEFAULT_LIST_SEARCH,
        limit: 10,
        query: [{ field: 'caseNumber', operator: 'is-not-empty' }],
        order: { field: 'caseNumber', direction: 'asc' },
      };
      const { data, total } = await searchCases(page, { ...from, page: 1, limit: 50 });
      expect(total).toBeGreaterThan(12);
      const at = (index: number) => {
        const found = data[index];
        if (!found) throw new Error(`no case at ${index}`);
        return found;
      };

      // The last case of list page 1, opened as the list links it: its neighbours are on pages 1 and 2.
      await page.goto(caseDetailHref(at(9).id, { from, prev: at(8).id, next: at(10).id, index: 9, total }));
      await page.getByTestId('case-detail').waitFor();
      expect(await caseNumberText(page)).toBe(at(9).caseNumber);
      expect(await page.getByTestId('case-position').innerText()).toBe(`10 / ${total}`);
      await page.getByTestId('case-search-bar').waitFor();
      await settle(page);
      await app.screenshot('case-detail-navigation-ja');

      await page.getByTestId('case-next').click();
      await expect.poll(() => searchParam(page, 'index')).toBe('10');
      await expect.poll(() => caseNumberText(page)).toBe(at(10).caseNumber);
      // Past the boundary: the list page follows (back to list lands on page 2).
      expect(new URLSearchParams(searchParam(page, 'from') ?? '').get('page')).toBe('2');
      expect(await page.getByTestId('case-back').getAttribute('href')).toContain('page=2');

      // The next id was not in the URL: it comes from the neighbour page of 50.
      await page.locator('a[data-testid="case-next"]').waitFor();
      await page.getByTestId('case-next').click();
      await expect.poll(() => caseNumberText(page)).toBe(at(11).caseNumber);
      expect(await page.getByTestId('case-position').innerText()).toBe(`12 / ${total}`);

      await page.locator('a[data-testid="case-previous"]').click();
      await expect.poll(() => caseNumberText(page)).toBe(at(10).caseNumber);
      await page.locator('a[data-testid="case-previous"]').click();
      await expect.poll(() => caseNumberText(page)).toBe(at(9).caseNumber);
      expect(new URLSearchParams(searchParam(page, 'from') ?? '').get('page')).toBeNull();

      // Reset drops the filters and returns to the list.
      expect(await page.getByTestId('case-search-reset').getAttribute('href')).not.toContain('query=');
      expect(app.consoleErrors).toEqual([]);
    });
  });
});

describe('case detail: create, edit, comment, share, transfer and delete', () => {
  it('walks one case through its life as an administrator', async () => {
    const member = await openAppPage(browser, baseURL);
    try {
      await withAppPage(browser, baseURL, 'case-detail-journey', async (app) => {
        const { page } = app;
        const caseNumber = `E2E-${Date.now()}`;
        await signIn(page, 'admin', '/cases/new');
        await page.getByTestId('case-create-form').waitFor();

        // Required fields first.
        await page.getByTestId('case-form-save').click();
        await page.getByText('この項目は必須です').first().waitFor();
        await pickOption(page, 'case-form-ownerOrganizationId', DEMO_GROUPS.harbor.name);
        await page.getByTestId('case-form-caseNumber').fill(caseNumber);
        // Organs are stored in English and named in the UI language.
        await pickOption(page, 'case-form-organ', '皮膚', '皮膚');
        await pickOption(page, 'case-form-specimenType', '生検');
        await page.getByTestId('case-form-tags').fill('melanocytic');
        await page.getByTestId('case-form-tags').press('Enter');
        await page.getByTestId('case-form-diagnosis').fill('Compound naevus');
        await settle(page);
        await app.screenshot('case-detail-create-ja');
        await page.getByTestId('case-form-save').click();

        await page.waitForURL(/\/cases\/[0-9a-f-]{36}$/);
        const caseId = caseIdOf(page);
        await page.getByTestId('case-details').waitFor();
        expect(await caseNumberText(page)).toBe(caseNumber);
        expect(await page.getByTestId('case-group').innerText()).toBe(DEMO_GROUPS.harbor.name);
        expect(await page.getByTestId('case-field-organ').innerText()).toBe('皮膚');

        // The member cannot see the case yet: the not-found page.
        await signIn(member.page, 'member', `/cases/${caseId}`);
        await member.page.getByTestId('not-found').waitFor();

        // Edit: a tag too long blocks saving; the saved change shows in the read view.
        await switchLanguage(page, 'en');
        await page.getByTestId('case-edit').click();
        await page.waitForURL(`**/cases/${caseId}/edit`);
        await page.getByTestId('case-form-diagnosis').fill('Compound naevus, completely excised');
        await page
          .getByTestId('case-form-microscopicFindings')
          .fill('Nests of naevus cells at the junction and in the dermis.');
        await page.getByTestId('case-form-tags').fill('x'.repeat(201));
        await page.getByTestId('case-form-tags').press('Enter');
        await page.getByText('This field must be at most 200 characters').waitFor();
        expect(await page.getByTestId('case-form-save').isDisabled()).toBe(true);
        await dismissToasts(page);
        await app.screenshot('case-detail-edit-invalid-en');
        await page.getByTestId('case-form-tags').press('Backspace');
        await expect.poll(() => page.getByTestId('case-form-save').isDisabled()).toBe(false);
        await page.getByTestId('case-form-save').click();
        await toast(page, `Case "${caseNumber}" updated`).waitFor();
        await page.waitForURL(`**/cases/${caseId}`);
        expect(await page.getByTestId('case-field-diagnosis').innerText()).toBe('Compound naevus, completely excised');
        await dismissToasts(page);
        await app.screenshot('case-detail-details-en');

        // Comment with a mention of a colleague of the group.
        const miller = DEMO_COLLEAGUES.find((colleague) => colleague.key === 'miller');
        const mention = `@${miller?.email.split('@')[0] ?? ''}`;
        await page.getByTestId('case-tab-comments').click();
        await page.waitForURL(`**/cases/${caseId}/comments`);
        await page.getByTestId('case-comments-empty').waitFor();
        await page.getByTestId('case-comment-input').fill(`${mention} could you review the margins?`);
        await page.getByTestId('case-comment-submit').click();
        await page.getByTestId('case-comment').waitFor();
        expect(await page.getByTestId('case-comment-mention').innerText()).toBe(mention);
        expect(await page.getByTestId('case-comment-author').innerText()).toBe('Akira Tanaka');
        expect(await page.getByTestId('case-comment-date').innerText()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
        await expect.poll(() => page.getByTestId('case-tab-comments-count').innerText()).toBe('1');
        await page.getByTestId('case-comment-edit').click();
        await page.getByTestId('case-comment-edit-input').fill(`${mention} could you review the deep margin?`);
        await page.getByTestId('case-comment-save').click();
        await page.getByText('could you review the deep margin?').waitFor();
        await dismissToasts(page);
        await app.screenshot('case-detail-comments-en');

        // Share: view access for the member, who then sees the case.
        await page.getByTestId('case-tab-permissions').click();
        await page.getByTestId('case-grants-empty').waitFor();
        await page.getByTestId('case-grant-email').fill(demoAccount('member').email);
        await page.getByTestId('case-grant-add').click();
        await toast(page, 'Case permission updated').waitFor();
        await page.getByTestId('case-grant').waitFor();
        expect(await page.getByTestId('case-grant-role').inputValue()).toBe('Read only');
        await dismissToasts(page);
        await app.screenshot('case-detail-permissions-en');
        await member.page.reload();
        await member.page.getByTestId('case-detail').waitFor();
        expect(await member.page.getByTestId('case-number').innerText()).toBe(caseNumber);
        expect(await member.page.getByTestId('case-transfer').count()).toBe(0);
        await member.page.getByTestId('case-tab-permissions').click();
        await member.page.getByTestId('case-permissions-readonly').waitFor();
        await member.screenshot('case-detail-shared-member-ja');

        // Transfer to another group of the administrator.
        await page.getByTestId('case-transfer').click();
        await page.getByTestId('case-transfer-destination').waitFor();
        await pickOption(page, 'case-transfer-destination', DEMO_GROUPS.university.name);
        await dismissToasts(page);
        await app.screenshot('case-detail-transfer-en');
        await page.getByTestId('case-transfer-confirm').click();
        await toast(page, `Case "${caseNumber}" transferred`).waitFor();
        await expect.poll(() => page.getByTestId('case-group').innerText()).toBe(DEMO_GROUPS.university.name);

        // Delete: the dialog names the comment, then deletes recursively.
        await page.getByTestId('case-options').click();
        await page.getByTestId('case-delete').click();
        await page.getByTestId('case-delete-contents').getByText('1 comment').waitFor();
        await dismissToasts(page);
        await app.screenshot('case-detail-delete-en');
        await page.getByTestId('case-delete-confirm').click();
        await toast(page, 'Case deleted').waitFor();
        await page.waitForURL((url) => url.pathname === '/cases');
        expect((await apiCall(page, 'GET', `/cases/${caseId}`)).status).toBe(404);
        expect(app.consoleErrors).toEqual([]);
      });
    } finally {
      await member.close();
    }
  });

  it('shows the details and the create form in Japanese', async () => {
    await withAppPage(browser, baseURL, 'case-detail-ja', async (app) => {
      const { page } = app;
      await signIn(page, 'admin', '/organizations');
      const { data } = await searchCases(page, { order: { field: 'caseNumber', direction: 'asc' }, page: 1, limit: 1 });
      const first = data[0];
      if (!first) throw new Error('no case');
      const detail = (await apiCall(page, 'GET', `/cases/${first.id}`)).json as Case;
      await page.goto(`/cases/${first.id}`);
      await page.getByTestId('case-details').waitFor();
      expect(await caseNumberText(page)).toBe(detail.caseNumber);
      await settle(page, 600);
      await app.screenshot('case-detail-details-ja');
      await page.getByTestId('case-tab-images').click();
      // Demo cases may carry the demo slide: the tab shows its grid or its empty state.
      await page.getByTestId('case-images').or(page.getByTestId('case-images-empty')).waitFor();
      await app.screenshot('case-detail-images-ja');
      expect(app.consoleErrors).toEqual([]);
    });
  });
});

describe('case detail: an update that fails without field errors', () => {
  it('says "Unable to update the case" with the reason above the form', async () => {
    await withAppPage(browser, baseURL, 'case-detail-update-failed', async (app) => {
      const { page } = app;
      await signIn(page, 'member', '/organizations');
      await switchLanguage(page, 'en');
      const item = await createCase(page, `E2E-GONE-${Date.now()}`, DEMO_GROUPS.central.name);
      await page.goto(`/cases/${item.id}/edit`);
      await page.getByTestId('case-form-diagnosis').fill('Changed while someone deleted the case');
      // Someone else deletes the case meanwhile: the save finds nothing to update.
      await deleteCasesAsSuper(browser, baseURL, [{ id: item.id }]);
      await page.getByTestId('case-form-save').click();
      const banner = page.getByTestId('case-form-banner');
      await banner.waitFor();
      expect(await banner.innerText()).toContain('Unable to save the case');
      expect(await banner.innerText()).toContain('Unable to update the case');
      expect(await banner.innerText()).toContain('Not found');
      await settle(page);
      await app.screenshot('case-detail-update-failed-en');

      await switchLanguage(page, 'ja');
      await page.getByTestId('case-form-save').click();
      await page.getByTestId('case-form-banner').getByText('症例を更新できませんでした').waitFor();
    });
  });
});
