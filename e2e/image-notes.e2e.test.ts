import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_GROUPS } from '../apps/server/src/db/seed/demo-groups.ts';
import { slidePath } from '../apps/server/test/testdata.ts';
import { launchBrowser, withAppPage } from './support/browser.ts';
import { deleteCasesAsSuper } from './support/case-cleanup.ts';
import { cutTexts, truncatedLabels } from './support/layout.ts';
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

/** At 1366×768 (issue 28) the private badge, the note's author and date and the panel's buttons show whole. */
async function expectNotesFit(page: Page): Promise<void> {
  const notes = page.getByTestId('image-notes');
  expect(await truncatedLabels(notes)).toEqual([]);
  expect(await cutTexts(page.getByTestId('image-note-meta'))).toEqual([]);
}

describe('image notes in the viewer', () => {
  it('adds, edits and deletes notes in English and Japanese; they survive a reload', async () => {
    let caseId: string | undefined;
    try {
      await withAppPage(
        browser,
        baseURL,
        'image-notes',
        async (app) => {
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
          await page.getByTestId('image-note-input').first().fill('Ask for a second opinion');
          await page
            .getByTestId('image-notes')
            .locator('label', { hasText: /^Private$/ })
            .first()
            .click();
          await page.getByTestId('image-note-save').first().click();
          await expect.poll(() => noteBodies(page)).toEqual(['Ask for a second opinion', 'Margins clear, 2 mm']);
          await page.getByTestId('image-note').first().getByText('Private').waitFor();
          await settle(page);
          await app.screenshot('image-notes-en');
          await expectNotesFit(page);

          await page.reload();
          await expect.poll(() => noteBodies(page)).toEqual(['Ask for a second opinion', 'Margins clear, 2 mm']);

          await switchLanguage(page, 'ja');
          await page.getByTestId('image-note-input').first().fill('免疫染色を追加予定');
          await page.getByRole('button', { name: 'メモを追加' }).click();
          await expect
            .poll(() => noteBodies(page))
            .toEqual(['免疫染色を追加予定', 'Ask for a second opinion', 'Margins clear, 2 mm']);
          await page.getByTestId('image-note').nth(1).getByText('非公開').waitFor();
          await settle(page);
          await expectNotesFit(page);
          await page.getByRole('button', { name: 'メモを削除' }).last().click();
          await page.getByTestId('image-note-delete-confirm').click();
          await expect.poll(() => noteBodies(page)).toEqual(['免疫染色を追加予定', 'Ask for a second opinion']);
          await settle(page);
          await app.screenshot('image-notes-ja');
          expect(app.consoleErrors).toEqual([]);
        },
        { viewport: { width: 1366, height: 768 } },
      );
    } finally {
      if (caseId) await deleteCasesAsSuper(browser, baseURL, [{ id: caseId }]);
    }
  });
});
