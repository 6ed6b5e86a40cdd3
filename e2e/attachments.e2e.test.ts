import type { Attachment, AttachmentList } from '@pathology/contract';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_GROUPS } from '../apps/server/src/db/seed/demo-groups.ts';
import { formatFileSize } from '../apps/web/src/features/case-images/format-size.ts';
import { createCase } from './support/slides.ts';
import { launchBrowser, openAppPage, withAppPage } from './support/browser.ts';
import { apiCall, dismissToasts, toast } from './support/case-api.ts';
import { deleteCasesAsSuper } from './support/case-cleanup.ts';
import { settle, switchLanguage, waitForShell } from './support/shell.ts';
import { menuKeys, signIn } from './support/sign-in.ts';
import { multiPagePdf } from './support/test-files.ts';

const baseURL = inject('baseURL');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/** 'yyyy-MM-dd' of an instant in the browser's time zone (the page runs in Asia/Tokyo). */
const tokyoDate = (iso: string) => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Tokyo' }).format(new Date(iso));

describe('attachments: add a PDF, preview it page by page, delete it', () => {
  it('walks one PDF through the attachments tab and the preview', async () => {
    let caseId: string | undefined;
    try {
      await withAppPage(browser, baseURL, 'attachments-pdf', async (app) => {
        const { page } = app;
        const pages = 3;
        const filename = 'e2e-report.pdf';
        const pdf = multiPagePdf(pages, 'E2E report');

        await signIn(page, 'member', '/organizations');
        await waitForShell(page);
        const item = await createCase(page, `E2E-ATT-${Date.now()}`, DEMO_GROUPS.central.name);
        caseId = item.id;
        await switchLanguage(page, 'en');
        await page.goto(`/cases/${item.id}/attachments`);
        const tab = page.getByTestId('attachments-tab');
        await tab.getByText('No attachments', { exact: true }).waitFor();

        // "Add Attachments" opens the file chooser; the PDF uploads and becomes a row with its size and date.
        const [chooser] = await Promise.all([
          page.waitForEvent('filechooser'),
          tab.getByRole('button', { name: 'Add Attachments' }).click(),
        ]);
        expect(chooser.isMultiple()).toBe(true);
        await chooser.setFiles({ name: filename, mimeType: 'application/pdf', buffer: pdf });
        await toast(page, `"${filename}" has been attached.`).waitFor();
        const row = tab.getByRole('row').filter({ hasText: filename });
        await row.getByRole('link', { name: filename }).waitFor();
        const stored = ((await apiCall(page, 'GET', `/cases/${item.id}/attachments`)).json as AttachmentList)
          .attachments;
        expect(stored.map((attachment: Attachment) => attachment.filename)).toEqual([filename]);
        const [attachment] = stored;
        expect(attachment?.sizeBytes).toBe(pdf.length);
        const cells = await row.getByRole('cell').allTextContents();
        expect(cells.slice(0, 3)).toEqual([
          filename,
          formatFileSize(pdf.length),
          tokyoDate(attachment?.createdAt ?? ''),
        ]);
        expect(await page.getByRole('heading', { name: '1 attachment' }).count()).toBe(1);
        await expect.poll(() => page.getByTestId('case-tab-attachments-count').innerText()).toBe('1');
        await dismissToasts(page);
        await settle(page);
        await app.screenshot('attachments-tab-en');

        // The preview: the name links to it; pdf.js renders page 1 of 3, then page 2.
        await row.getByRole('link', { name: filename }).click();
        await page.waitForURL(`**/cases/${item.id}/attachments/${filename}/${attachment?.id ?? ''}`);
        await page.getByRole('heading', { name: filename }).waitFor();
        const pageLabel = page.getByTestId('pdf-page');
        await expect.poll(() => pageLabel.innerText(), { timeout: 20_000 }).toBe(`Page 1 of ${pages}`);
        const canvas = page.getByTestId('pdf-canvas').locator('canvas');
        await canvas.waitFor();
        const previous = page.getByRole('button', { name: 'Previous page' });
        expect(await previous.isDisabled()).toBe(true);
        await page.getByRole('button', { name: 'Next page' }).click();
        await expect.poll(() => pageLabel.innerText()).toBe(`Page 2 of ${pages}`);
        expect(await previous.isDisabled()).toBe(false);
        // Page 2's text layer says so (the hand-written PDF prints its page number).
        await page.getByTestId('pdf-canvas').getByText('E2E report page 2').waitFor();
        expect(app.consoleErrors).toEqual([]);
        // Away from the toolbar, so its tooltip does not cover the title.
        await page.mouse.move(640, 600);
        await settle(page, 600);
        await app.screenshot('attachments-pdf-preview-en');

        // Back to the case, then delete the attachment after confirming.
        await page.getByRole('link', { name: 'Back to Images' }).click();
        await page.waitForURL((url) => url.pathname === `/cases/${item.id}`);
        await page.getByTestId('case-detail').waitFor();
        await page.getByRole('tab', { name: /Attachments/ }).click();
        await tab.getByRole('row').filter({ hasText: filename }).waitFor();
        await tab.getByRole('button', { name: `Delete ${filename}` }).click();
        const confirm = page.getByRole('dialog', { name: 'Delete Attachment' });
        await confirm.getByText('Are you sure you want to delete the file?').waitFor();
        await confirm.getByText(filename, { exact: true }).waitFor();
        await settle(page);
        await app.screenshot('attachments-delete-en');
        await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
        await toast(page, `"${filename}" has been deleted.`).waitFor();
        await confirm.waitFor({ state: 'hidden' });
        await tab.getByText('No attachments', { exact: true }).waitFor();
        expect(await tab.getByRole('row').filter({ hasText: filename }).count()).toBe(0);
        expect(
          ((await apiCall(page, 'GET', `/cases/${item.id}/attachments`)).json as AttachmentList).attachments,
        ).toEqual([]);
        expect(app.consoleErrors).toEqual([]);
      });
    } finally {
      await deleteCasesAsSuper(browser, baseURL, caseId === undefined ? [] : [{ id: caseId }]);
    }
  });
});

describe('attachments and uploads: a read-only user', () => {
  it('sees neither "Add Attachments" nor an image upload on a case of a group where they are read-only', async () => {
    const member = await openAppPage(browser, baseURL);
    try {
      await signIn(member.page, 'member', '/organizations');
      await waitForShell(member.page);
      const item = await createCase(member.page, `E2E-RO-${Date.now()}`, DEMO_GROUPS.central.name);
      try {
        await withAppPage(browser, baseURL, 'attachments-read-only', async (app) => {
          const { page } = app;
          await signIn(page, 'readOnly', `/cases/${item.id}/attachments`);
          await waitForShell(page);
          // Japanese, the browser's language: the empty tab says there is nothing, with no add button.
          const tab = page.getByTestId('attachments-tab');
          await tab.getByText('この症例には添付ファイルがありません。').waitFor();
          expect(await page.getByRole('button', { name: '添付ファイルを追加' }).count()).toBe(0);
          expect(await page.getByTestId('add-attachments').count()).toBe(0);
          expect(await page.locator('input[type=file]').count()).toBe(0);
          await settle(page);
          await app.screenshot('attachments-read-only-ja');

          await page.getByRole('tab', { name: /画像/ }).click();
          await page.getByTestId('case-images-empty').waitFor();
          expect(await page.getByTestId('case-image-upload').count()).toBe(0);
          expect(await page.getByTestId('add-images').count()).toBe(0);
          expect(await page.locator('input[type=file]').count()).toBe(0);
          await app.screenshot('uploads-read-only-images-ja');

          // Nor on the case list of such a group (the first one by name is current: read-only there too).
          await page.goto('/cases');
          await page.locator('[data-testid="case-table"][aria-busy="false"]').waitFor();
          expect(await page.getByTestId('open-upload-dialog').count()).toBe(0);
          // And the menu has no bulk upload ("Upload Files") for them.
          expect(await menuKeys(page)).not.toContain('bulkUpload');
          expect(app.consoleErrors).toEqual([]);
        });
      } finally {
        await deleteCasesAsSuper(browser, baseURL, [{ id: item.id }]);
      }
    } finally {
      await member.close();
    }
  });
});
