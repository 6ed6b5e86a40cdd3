import { SCREEN_SETTING_DEFAULTS, type Image, type ImageSearchResponse } from '@pathology/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_GROUPS } from '../apps/server/src/db/seed/demo-groups.ts';
import { slidePath } from '../apps/server/test/testdata.ts';
import { launchBrowser, withAppPage } from './support/browser.ts';
import { apiCall, toast } from './support/case-api.ts';
import { deleteCasesAsSuper } from './support/case-cleanup.ts';
import { settle, switchLanguage, waitForShell } from './support/shell.ts';
import { signIn } from './support/sign-in.ts';
import { createCase, uploadImage, waitUntilAvailable } from './support/slides.ts';
import { slideCopies } from './support/test-files.ts';

const baseURL = inject('baseURL');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const cardNames = (page: Page) => page.getByTestId('case-image-link').allInnerTexts();

async function caseImages(page: Page, caseId: string): Promise<Image[]> {
  const { json } = await apiCall(page, 'POST', '/images/search', {
    query: [{ field: 'caseId', operator: 'is', value: caseId }],
    limit: 50,
  });
  return (json as ImageSearchResponse).data;
}

describe("case screen's image toolbar", () => {
  it('sorts (kept over a reload), searches, sets the AI model and copies an image, in English and Japanese', async () => {
    const caseIds: string[] = [];
    const copies = await slideCopies(slidePath('CMU-1-Small-Region.svs'), ['A-slide.svs', 'B-slide.svs']);
    try {
      await withAppPage(browser, baseURL, 'case-image-toolbar', async (app) => {
        const { page } = app;
        await signIn(page, 'member', '/organizations');
        await waitForShell(page);
        await switchLanguage(page, 'en');
        const source = await createCase(page, `E2E-TOOL-${Date.now()}`, DEMO_GROUPS.central.name);
        const target = await createCase(page, `E2E-DEST-${Date.now()}`, DEMO_GROUPS.central.name);
        caseIds.push(source.id, target.id);
        for (const file of copies.files) await waitUntilAvailable(page, await uploadImage(page, source.id, file));

        // The order is the user's own setting: start from the default (display name, ascending).
        await apiCall(page, 'POST', '/screen_settings/save', {
          items: [{ settingType: 'case_detail', value: SCREEN_SETTING_DEFAULTS.case_detail }],
        });
        await page.goto(`/cases/${source.id}/images`);
        await page.getByTestId('case-images-toolbar').waitFor();
        await expect.poll(() => cardNames(page)).toEqual(['A-slide.svs', 'B-slide.svs']);

        // Sort by display name, descending; the second priority never offers the first's field.
        await page.getByTestId('image-sort').click();
        const dialog = page.getByTestId('image-sort-dialog');
        await dialog.getByTestId('image-sort-first').getByText('Descending').click();
        await dialog.getByTestId('image-sort-second').locator('input').first().click();
        const offered = await page.getByRole('option').allInnerTexts();
        expect(offered).not.toContain('Display name');
        expect(offered).toContain('Uploaded');
        await page.keyboard.press('Escape');
        await dialog.getByTestId('image-sort-apply').click();
        await expect.poll(() => cardNames(page)).toEqual(['B-slide.svs', 'A-slide.svs']);
        await page.reload();
        await page.getByTestId('case-images-toolbar').waitFor();
        await expect.poll(() => cardNames(page)).toEqual(['B-slide.svs', 'A-slide.svs']);

        // The star on a card (B, first now) is the user's own label on that image.
        await page.getByTestId('image-label-toggles').first().getByRole('button').first().click();
        await expect
          .poll(async () => (await caseImages(page, source.id)).find((image) => image.privateLabelled)?.displayName)
          .toBe('B-slide.svs');

        // Search on the server: one of the two.
        await page.getByTestId('image-search').click();
        await page.getByTestId('image-search-name').fill('A-sl');
        await page.getByTestId('image-search-submit').click();
        await expect.poll(() => cardNames(page)).toEqual(['A-slide.svs']);
        expect(await page.getByTestId('image-search-active').innerText()).toContain('1 of 2 images match');
        await page.getByTestId('image-search-active').getByRole('button').click();
        await expect.poll(() => cardNames(page)).toHaveLength(2);

        // Set AI Model on the checked image.
        await page.getByRole('checkbox', { name: 'Select A-slide.svs' }).check();
        await page.getByTestId('case-images-set-model').click();
        await page.getByTestId('model-picker-organ').click();
        await page.getByRole('option', { name: 'Breast', exact: true }).click();
        await page.getByTestId('model-picker-model').click();
        // Only installed models can be picked: the built-in one, offered for every organ.
        await page.getByRole('option', { name: 'Breast biopsy (coming soon)' }).waitFor();
        await page.getByRole('option', { name: 'Nuclear density (any organ)', exact: true }).click();
        await page.getByTestId('set-model-apply').click();
        await toast(page, 'The images has been updated').waitFor();
        const models = Object.fromEntries(
          (await caseImages(page, source.id)).map((image) => [image.displayName, image.modelName]),
        );
        expect(models).toEqual({ 'A-slide.svs': 'others', 'B-slide.svs': null });
        await settle(page);
        await app.screenshot('case-image-toolbar-en');

        // Copy B into the other case.
        await page.getByTestId('case-image-menu').first().click();
        await page.getByTestId('case-image-copy').click();
        await page.getByTestId('copy-image-case-number').fill(target.caseNumber);
        await page.getByTestId('copy-image-find').click();
        await page.getByTestId('copy-image-submit').click();
        await toast(page, `Image copied to ${target.caseNumber}`).waitFor();
        expect((await caseImages(page, target.id)).map((image) => image.displayName)).toEqual(['B-slide.svs']);

        await switchLanguage(page, 'ja');
        await page.getByTestId('case-images-toolbar').waitFor();
        expect(await page.getByTestId('image-sort').innerText()).toBe('並べ替え');
        expect(await page.getByTestId('image-search').innerText()).toBe('検索');
        await settle(page);
        await app.screenshot('case-image-toolbar-ja');
        expect(app.consoleErrors).toEqual([]);
      });
    } finally {
      await copies.remove();
      await deleteCasesAsSuper(
        browser,
        baseURL,
        caseIds.map((id) => ({ id })),
      );
    }
  });
});
