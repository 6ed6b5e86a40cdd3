import fs from 'node:fs/promises';
import path from 'node:path';
import type { Image } from '@pathology/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ctSlice, tiffToDicomSlide } from '../apps/server/src/imaging/dicom-read.test-support.ts';
import { zipEntries } from '../apps/server/test/zip-entries.ts';
import { launchBrowser, withAppPage } from './support/browser.ts';
import { apiCall, toast } from './support/case-api.ts';
import { deleteCasesAsSuper } from './support/case-cleanup.ts';
import { settle, switchLanguage, waitForShell } from './support/shell.ts';
import { accessToken, signIn } from './support/sign-in.ts';
import { waitUntilAvailable } from './support/slides.ts';

const baseURL = inject('baseURL');
let browser: Browser;
let instances: string[];
let ct: string;

beforeAll(async () => {
  // pixelmed's TIFFToDicom of the test slide (levels, label, overview, thumbnail: one .dcm each) and a CT slice.
  [browser, instances, [ct = ''] = []] = await Promise.all([launchBrowser(), tiffToDicomSlide(), ctSlice()]);
}, 180_000);

afterAll(async () => {
  await browser?.close();
});

const TEXT = {
  en: {
    download: 'Download as DICOM',
    copy: 'Copy DICOMweb address',
    downloaded: (name: string) => `The DICOM files of "${name}" have been downloaded.`,
    copied: 'The DICOMweb address has been copied.',
    parseFailed: (name: string) => `Error while parsing the file: ${name}`,
  },
  ja: {
    download: 'DICOM形式でダウンロード',
    copy: 'DICOMwebアドレスをコピー',
    downloaded: (name: string) => `「${name}」のDICOMファイルをダウンロードしました。`,
    copied: 'DICOMwebアドレスをコピーしました。',
    parseFailed: (name: string) => `ファイルの解析中にエラーが発生しました: ${name}`,
  },
} as const;

/** The page's clipboard (the journeys' types have no DOM). */
type WithClipboard = {
  navigator: { clipboard: { readText(): Promise<string>; writeText(text: string): Promise<void> } };
};

/** The clipboard as the page reads it (Chromium, with the permission granted to the context). */
const clipboard = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as WithClipboard).navigator.clipboard.readText());

describe('DICOM in the web app (issue 45)', () => {
  it('uploads the instances of one slide chosen together as one image; its menus download it as DICOM and copy its DICOMweb address', async () => {
    const caseIds: string[] = [];
    try {
      await withAppPage(
        browser,
        baseURL,
        'dicom-upload-and-menus',
        async (app) => {
          const { page } = app;
          const text = TEXT.en;
          await signIn(page, 'member', '/cases');
          await waitForShell(page);
          await switchLanguage(page, 'en');
          await page.locator('[data-testid="case-table"][aria-busy="false"]').waitFor();

          // The slide's four instances and a CT slice, chosen together: one zip of the series, the CT named.
          await page.getByTestId('open-upload-dialog').first().click();
          const dialog = page.getByTestId('upload-dialog');
          await dialog.getByTestId('case-picker').fill(`E2E-DICOM-${Date.now()}`);
          await dialog.getByTestId('case-status').waitFor();
          expect(instances.length).toBeGreaterThan(1);
          await dialog.getByTestId('dialog-file-input').setInputFiles([...instances, ct]);
          const alert = dialog.getByTestId('parse-error-alert');
          await alert.waitFor();
          expect(await alert.getByRole('listitem').allTextContents()).toEqual([text.parseFailed(path.basename(ct))]);
          await expect.poll(() => dialog.getByTestId('draft-file').count()).toBe(1);
          expect(await dialog.getByTestId('draft-file').innerText()).toContain('slide_0.zip');
          await settle(page);
          await app.screenshot('dicom-dialog-grouped-en');
          await dialog.getByTestId('upload-submit').click();
          await dialog.locator('[data-testid="upload-item"][data-status="uploaded"]').waitFor({ timeout: 60_000 });
          await dialog.getByTestId('upload-view-slide').click();
          await page.waitForURL(/\/cases\/[0-9a-f-]{36}\/images\/[0-9a-f-]{36}/);
          const [, caseId = '', imageId = ''] = /\/cases\/([^/]+)\/images\/([^/?]+)/.exec(page.url()) ?? [];
          caseIds.push(caseId);
          const image: Image = await waitUntilAvailable(page, imageId);
          expect(image).toMatchObject({ format: 'dicom', dimensions: { width: 2220, height: 2967 } });
          await page.reload();
          await page.locator('[data-testid="viewer-canvas"][data-state="ready"]').waitFor({ timeout: 30_000 });

          // The viewer's slide menu: the export's zip holds Part 10 files.
          await page.getByTestId('viewer-slide-menu').click();
          const downloading = page.waitForEvent('download');
          await page.getByRole('menuitem', { name: text.download }).click();
          const download = await downloading;
          expect(download.suggestedFilename()).toBe('slide_0.dicom.zip');
          const entries = await zipEntries(await fs.readFile(await download.path()));
          expect(entries.size).toBeGreaterThan(1);
          for (const [name, bytes] of entries) {
            expect(name).toMatch(/\.dcm$/);
            expect(bytes.toString('latin1', 128, 132)).toBe('DICM');
          }
          await toast(page, text.downloaded(image.displayName)).waitFor();

          // Copy DICOMweb address: the series under our root, which answers with the user's token.
          await page.getByTestId('viewer-slide-menu').click();
          await page.getByRole('menuitem', { name: text.copy }).click();
          await toast(page, text.copied).waitFor();
          const address = `${new URL(page.url()).origin}/dicomweb/studies/${image.dicom.studyInstanceUid}/series/${image.dicom.seriesInstanceUid}`;
          expect(await clipboard(page)).toBe(address);
          const metadata = await page.request.get(`${address}/metadata`, {
            headers: { Authorization: `Bearer ${await accessToken(page)}` },
          });
          expect(metadata.status()).toBe(200);
          await settle(page);
          await app.screenshot('dicom-viewer-copied-en');

          // The case page's image menu, in Japanese.
          await page.evaluate(() => (globalThis as unknown as WithClipboard).navigator.clipboard.writeText(''));
          await switchLanguage(page, 'ja');
          await page.goto(`/cases/${caseId}/images`);
          await page.getByTestId('case-image-menu').first().click();
          await page.getByRole('menuitem', { name: TEXT.ja.download }).waitFor();
          await settle(page);
          await app.screenshot('dicom-case-menu-ja');
          await page.getByRole('menuitem', { name: TEXT.ja.copy }).click();
          await toast(page, TEXT.ja.copied).waitFor();
          expect(await clipboard(page)).toBe(address);
          await page.getByTestId('case-image-menu').first().click();
          const again = page.waitForEvent('download');
          await page.getByRole('menuitem', { name: TEXT.ja.download }).click();
          expect((await again).suggestedFilename()).toBe('slide_0.dicom.zip');
          await toast(page, TEXT.ja.downloaded(image.displayName)).waitFor();
          expect(app.consoleErrors).toEqual([]);
        },
        { permissions: ['clipboard-read', 'clipboard-write'] },
      );

      // A read-only user may not download drawings, so not the slide either: only the address is offered.
      await withAppPage(browser, baseURL, 'dicom-menu-read-only', async (app) => {
        const { page } = app;
        await signIn(page, 'readOnly', `/cases/${caseIds[0]}/images`);
        await waitForShell(page);
        await switchLanguage(page, 'en');
        await page.getByTestId('case-image-menu').first().click();
        await page.getByRole('menuitem', { name: TEXT.en.copy }).waitFor();
        expect(await page.getByTestId('image-dicom-download').count()).toBe(0);
        const { status } = await apiCall(page, 'GET', `/images/${await firstImageId(page, caseIds[0]!)}/dicom`);
        expect(status).toBe(403);
      });
    } finally {
      await deleteCasesAsSuper(
        browser,
        baseURL,
        caseIds.map((id) => ({ id })),
      );
    }
  }, 300_000);
});

async function firstImageId(page: Page, caseId: string): Promise<string> {
  const { json } = await apiCall(page, 'POST', '/images/search', {
    query: [{ field: 'caseId', operator: 'is', value: caseId }],
    limit: 1,
  });
  return (json as { data: Image[] }).data[0]!.id;
}
