import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_GROUPS } from '../apps/server/src/db/seed/demo-groups.ts';
import { slidePath } from '../apps/server/test/testdata.ts';
import { launchBrowser, withAppPage } from './support/browser.ts';
import { deleteCasesAsSuper } from './support/case-cleanup.ts';
import { settle, switchLanguage, waitForShell } from './support/shell.ts';
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

const noteBodies = (page: Page) => page.getByTestId('image-note-body').allInnerTexts();

describe('image notes in the viewer', () => {
  it('adds, edits and deletes notes in English and Japanese; they survive a reload', async () => {
    let caseId: string | undefined;
    try {
      await withAppPage(browser, baseURL, 'image-notes', async (app) => {
        const { page } = app;
        await signIn(page, 'member', '/organizations');
        await waitForShell(page);
        await switchLanguage(page, 'en');
        const created = await createCase(page, `E2E-NOTE-${Date.now()}`, DEMO_GROUPS.central.name);
        caseId = created.id;
        const image = await waitUntilAvailable(
          page,
          await uploadImage(page, created.id, slidePath('CMU-1-Small-Region.svs')),
        );
        await page.goto(`/cases/${created.id}/images/${image.id}`);
        await page.getByTestId('image-notes-empty').waitFor();

        await page.getByTestId('image-note-input').fill('Margins look clear');
        await page.getByTestId('image-note-save').click();
        await expect.poll(() => noteBodies(page)).toEqual(['Margins look clear']);

        await page.getByRole('button', { name: 'Edit note' }).click();
        await page.getByTestId('image-notes').getByTestId('image-note-input').nth(1).fill('Margins clear, 2 mm');
        await page.getByTestId('image-notes').getByRole('button', { name: 'Save', exact: true }).click();
        await expect.poll(() => noteBodies(page)).toEqual(['Margins clear, 2 mm']);
        await settle(page);
        await app.screenshot('image-notes-en');

        await page.reload();
        await expect.poll(() => noteBodies(page)).toEqual(['Margins clear, 2 mm']);

        await switchLanguage(page, 'ja');
        await page.getByTestId('image-note-input').first().fill('免疫染色を追加予定');
        await page.getByRole('button', { name: 'メモを追加' }).click();
        await expect.poll(() => noteBodies(page)).toEqual(['免疫染色を追加予定', 'Margins clear, 2 mm']);
        await page.getByRole('button', { name: 'メモを削除' }).last().click();
        await page.getByTestId('image-note-delete-confirm').click();
        await expect.poll(() => noteBodies(page)).toEqual(['免疫染色を追加予定']);
        await settle(page);
        await app.screenshot('image-notes-ja');
        expect(app.consoleErrors).toEqual([]);
      });
    } finally {
      if (caseId) await deleteCasesAsSuper(browser, baseURL, [{ id: caseId }]);
    }
  });
});
