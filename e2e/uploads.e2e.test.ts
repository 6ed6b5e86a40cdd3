import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { AttachmentList, CaseSearchResponse } from '@pathology/contract';
import sharp from 'sharp';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { slidePath } from '../apps/server/test/testdata.ts';
import { launchBrowser, withAppPage } from './support/browser.ts';
import { deleteCasesAsSuper } from './support/case-cleanup.ts';
import { apiCall, dismissToasts, searchCases } from './support/case-api.ts';
import { settle, switchLanguage, waitForShell } from './support/shell.ts';
import { signIn } from './support/sign-in.ts';
import { multiPagePdf, slideCopies } from './support/test-files.ts';

const baseURL = inject('baseURL');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const SLIDE = 'CMU-1-Small-Region.svs';
/** The real worker converts the small SVS in seconds; a loaded machine gets room. */
const CONVERSION_TIMEOUT_MS = 90_000;

/** The case with exactly this number among those the signed-in user sees, or undefined. */
async function findCase(page: Page, caseNumber: string): Promise<CaseSearchResponse['data'][number] | undefined> {
  const { data } = await searchCases(page, {
    query: [{ field: 'caseNumber', operator: 'is', value: caseNumber }],
    order: { field: 'caseNumber', direction: 'asc' },
    page: 1,
    limit: 10,
  });
  return data.find((item) => item.caseNumber === caseNumber);
}

describe('uploads: the case list dialog, the images tab and the header popover', () => {
  it('sends a PDF as an attachment, and a JPEG as an image or, when chosen, as an attachment', async () => {
    const caseNumber = `E2E-KIND-${Date.now()}`;
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'pathology-e2e-kinds-'));
    const pdf = path.join(dir, 'report.pdf');
    const jpeg = path.join(dir, 'gross-photo.jpg');
    await fs.writeFile(pdf, multiPagePdf(1));
    await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c06080' } })
      .jpeg()
      .toFile(jpeg);
    try {
      await withAppPage(browser, baseURL, 'uploads-kinds', async (app) => {
        const { page } = app;
        await signIn(page, 'member', '/cases');
        await waitForShell(page);
        await switchLanguage(page, 'en');
        await page.locator('[data-testid="case-table"][aria-busy="false"]').waitFor();
        await page.getByRole('button', { name: 'Add Images', exact: true }).click();
        const dialog = page.getByRole('dialog', { name: 'Add Images' });
        await dialog.getByLabel('Case number').fill(caseNumber);
        await dialog.getByText('New case', { exact: true }).waitFor();
        await dialog.getByTestId('dialog-file-input').setInputFiles([pdf, jpeg]);

        // A PDF can only be an attachment; a JPEG offers both, an image unless changed.
        const pdfRow = dialog.getByTestId('draft-file').filter({ hasText: 'report.pdf' });
        expect(await pdfRow.getByTestId('draft-support').getAttribute('data-kind')).toBe('attachment');
        expect(await pdfRow.getByTestId('draft-support').textContent()).toBe('Attachment');
        const jpegRow = dialog.getByTestId('draft-file').filter({ hasText: 'gross-photo.jpg' });
        const kind = jpegRow.getByTestId('draft-kind');
        expect(await kind.getByRole('radio', { name: 'Image' }).isChecked()).toBe(true);
        await kind.getByText('Attachment', { exact: true }).click();
        await expect.poll(() => kind.getByRole('radio', { name: 'Attachment' }).isChecked()).toBe(true);
        await settle(page);
        await app.screenshot('uploads-dialog-kinds-en');

        await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
        await expect
          .poll(() => dialog.locator('[data-testid="upload-item"][data-status="uploaded"]').count(), {
            timeout: 60_000,
          })
          .toBe(2);
        const created = await findCase(page, caseNumber);
        expect(created).toBeDefined();
        const { attachments } = (await apiCall(page, 'GET', `/cases/${created!.id}/attachments`))
          .json as AttachmentList;
        expect(attachments.map((attachment) => attachment.filename).sort()).toEqual(['gross-photo.jpg', 'report.pdf']);
        expect(created!.images).toEqual([]);
        expect(app.consoleErrors).toEqual([]);
      });
    } finally {
      await deleteCasesAsSuper(browser, baseURL, [{ caseNumber }]);
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('uploads a slide into a new case, which the worker converts to an available image with a thumbnail', async () => {
    const caseNumber = `E2E-UP-${Date.now()}`;
    try {
      await withAppPage(browser, baseURL, 'uploads-dialog', async (app) => {
        const { page } = app;
        // Every thumbnail request: it must carry the bearer token (an <img src> could not).
        const thumbnailRequests: Request[] = [];
        page.on('request', (request) => {
          if (/\/api\/v1\/images\/[^/]+\/data\?type=SMALL$/.test(request.url())) thumbnailRequests.push(request);
        });

        await signIn(page, 'member', '/cases');
        await waitForShell(page);
        await switchLanguage(page, 'en');
        await page.locator('[data-testid="case-table"][aria-busy="false"]').waitFor();
        // The dialog: a new case number, one slide.
        await page.getByRole('button', { name: 'Add Images', exact: true }).click();
        const dialog = page.getByRole('dialog', { name: 'Add Images' });
        await dialog.waitFor();
        await dialog.getByLabel('Case number').fill(caseNumber);
        // Looked up (debounced) and not found: it will be created on Upload.
        await dialog.getByText('New case', { exact: true }).waitFor();
        await dialog.getByTestId('dialog-file-input').setInputFiles(slidePath(SLIDE));
        expect(await dialog.getByLabel(`Display name of ${SLIDE}`).inputValue()).toBe(SLIDE);
        await dialog.getByRole('button', { name: 'Upload', exact: true }).click();

        // Per-file progress up to 100 % and "Uploaded".
        const item = dialog.getByTestId('upload-item').filter({ hasText: SLIDE });
        await item.waitFor();
        await dialog.locator('[data-testid="upload-item"][data-status="uploaded"]').waitFor({ timeout: 60_000 });
        expect(await item.getByText('Uploaded', { exact: true }).count()).toBe(1);
        const progress = dialog.getByRole('progressbar', { name: `Upload progress of ${SLIDE}` });
        expect(await progress.getAttribute('aria-valuenow')).toBe('100');
        await dialog.getByText('1 of 1 uploaded').waitFor();
        // The case was created when the file was stored: its number links to it.
        await item.getByRole('link', { name: caseNumber }).waitFor();
        // (No waiting for the "Upload completed" toast to go: the worker is converting meanwhile.)
        await app.screenshot('uploads-dialog-progress-en');
        await dialog.getByRole('button', { name: 'Close', exact: true }).click();
        await dialog.waitFor({ state: 'hidden' });

        // The new case shows in the list (refreshed when the file was stored); open it, then its images.
        await page.getByRole('link', { name: caseNumber, exact: true }).click();
        await page.waitForURL(/\/cases\/[0-9a-f-]{36}(\?|$)/);
        const caseId = new URL(page.url()).pathname.split('/')[2] ?? '';
        await page.getByRole('tab', { name: /Images/ }).click();
        await page.waitForURL(`**/cases/${caseId}/images**`);
        const card = page.getByTestId('case-image-card').filter({ hasText: SLIDE });
        await card.waitFor();

        // The status badge goes Queued / Processing → Available as the real worker converts it (the tab polls).
        const badgeOf: Record<string, string> = { uploaded: 'Queued', processing: 'Processing' };
        const seen: string[] = [];
        await expect
          .poll(
            async () => {
              const status = (await card.getAttribute('data-status')) ?? '';
              if (seen.at(-1) !== status) {
                seen.push(status);
                const badge = badgeOf[status];
                if (badge !== undefined) {
                  // The thumbnail's place shows the status badge instead of a picture.
                  await card.getByRole('img', { name: `Thumbnail of ${SLIDE}: ${badge}` }).waitFor({ timeout: 2_000 });
                  if (seen.length === 1) await app.screenshot('uploads-images-tab-processing-en');
                }
              }
              return status;
            },
            { timeout: CONVERSION_TIMEOUT_MS, interval: 500 },
          )
          .toBe('available');
        console.info(`e2e uploads: image statuses seen on the Images tab: ${seen.join(' → ')}`);
        expect(seen.every((status) => ['uploaded', 'processing', 'available'].includes(status))).toBe(true);

        // The thumbnail: an <img> from an object URL of bytes fetched with the bearer token, decoded.
        // (By its alt text: it sits in a link hidden from assistive technology, next to the name's own link.)
        const thumbnail = card.getByAltText(`Thumbnail of ${SLIDE}`, { exact: true });
        await thumbnail.waitFor({ timeout: 30_000 });
        expect(await thumbnail.evaluate((img) => img.tagName)).toBe('IMG');
        expect(await thumbnail.getAttribute('src')).toMatch(/^blob:/);
        await expect
          .poll(() => thumbnail.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth))
          .toBeGreaterThan(0);
        const fetched = thumbnailRequests.at(-1);
        expect(fetched, 'no thumbnail request').toBeDefined();
        expect(await fetched?.headerValue('authorization')).toMatch(/^Bearer \S+/);
        expect((await fetched?.response())?.status()).toBe(200);
        expect(await card.getByRole('link', { name: SLIDE }).count()).toBe(1);
        const created = await findCase(page, caseNumber);
        expect(created?.id).toBe(caseId);
        expect(created?.numberOfImages).toBe(1);
        expect(created?.imageStatusCounts.available).toBe(1);
        await dismissToasts(page);
        await settle(page);
        await app.screenshot('uploads-images-tab-en');

        // The header popover lists the completed upload (this page's history survives in-app navigation).
        await page.getByRole('button', { name: 'Upload progress' }).click();
        const popover = page.getByTestId('uploads-popover');
        await popover.waitFor();
        const entry = popover.locator('[data-testid="upload-history-entry"][data-type="upload_completed"]').filter({
          hasText: SLIDE,
        });
        await entry.waitFor();
        expect(await entry.getByText('Completed', { exact: true }).count()).toBe(1);
        expect(await entry.getByRole('link', { name: caseNumber }).getAttribute('href')).toBe(`/cases/${caseId}`);
        await settle(page);
        await app.screenshot('uploads-popover-en');
        await page.keyboard.press('Escape');
        expect(app.consoleErrors).toEqual([]);
      });
    } finally {
      await deleteCasesAsSuper(browser, baseURL, [{ caseNumber }]);
    }
  });

  it('bulk uploads files named after their cases, creating the missing cases', async () => {
    const n = Date.now();
    const bulk = `E2E-BULK-${n}`;
    const bulk2 = `E2E-BULK2-${n}`;
    const names = [`${bulk}--a.svs`, `${bulk}--b.svs`, `${bulk2}.svs`];
    const copies = await slideCopies(slidePath(SLIDE), names);
    try {
      await withAppPage(browser, baseURL, 'uploads-bulk', async (app) => {
        const { page } = app;
        await signIn(page, 'member', '/bulk-upload');
        await waitForShell(page);
        await switchLanguage(page, 'en');
        const screen = page.getByTestId('bulk-upload');
        await page.locator('[data-testid="bulk-upload"][data-step="adding"]').waitFor();
        await page.getByTestId('bulk-file-input').setInputFiles(copies.files);
        const rows = page.getByTestId('bulk-file-row');
        await expect.poll(() => rows.count()).toBe(3);

        // Preview: the server reads each case number; neither case exists yet.
        await page.getByRole('button', { name: 'Preview', exact: true }).click();
        await page.locator('[data-testid="bulk-upload"][data-step="previewing"]').waitFor();
        const table = page.getByRole('table');
        const caseNumberOf = async (filename: string) => {
          const row = table.getByRole('row').filter({ hasText: filename });
          // File name, size, case number, case, status.
          // textContent: badges are upper-cased by CSS only.
          const cells = await row.getByRole('cell').allTextContents();
          return { caseNumber: cells[2]?.trim(), caseState: cells[3]?.trim(), status: cells[4]?.trim() };
        };
        expect(await caseNumberOf(names[0] ?? '')).toEqual({
          caseNumber: bulk,
          caseState: 'New case',
          status: 'Ready',
        });
        expect(await caseNumberOf(names[1] ?? '')).toEqual({
          caseNumber: bulk,
          caseState: 'New case',
          status: 'Ready',
        });
        expect(await caseNumberOf(names[2] ?? '')).toEqual({
          caseNumber: bulk2,
          caseState: 'New case',
          status: 'Ready',
        });
        expect(await page.getByTestId('bulk-summary').innerText()).toBe(
          'Files to upload: 3 · New cases: 2 · Skipped: 0',
        );
        await settle(page);
        await app.screenshot('uploads-bulk-preview-en');

        // Upload, one file at a time, until the batch is done.
        await page.getByRole('button', { name: 'Upload 3 files' }).click();
        await page.locator('[data-testid="bulk-upload"][data-step="done"]').waitFor({ timeout: 90_000 });
        expect(await screen.getByTestId('bulk-done').innerText()).toBe('Upload finished: 3 uploaded, 0 failed.');
        expect(await page.locator('[data-testid="upload-item"][data-status="uploaded"]').count()).toBe(3);
        await dismissToasts(page);
        await settle(page);
        await app.screenshot('uploads-bulk-done-en');

        // The two cases exist with 2 and 1 images.
        const first = await findCase(page, bulk);
        const second = await findCase(page, bulk2);
        expect(first?.numberOfImages).toBe(2);
        expect(second?.numberOfImages).toBe(1);
        expect(first?.images.map((image) => image.filename).sort()).toEqual([names[0], names[1]]);
        expect(second?.images.map((image) => image.filename)).toEqual([names[2]]);
        expect(app.consoleErrors).toEqual([]);
      });
    } finally {
      await copies.remove();
      await deleteCasesAsSuper(browser, baseURL, [{ caseNumber: bulk }, { caseNumber: bulk2 }]);
    }
  });
});
