import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { slidePath } from '../apps/server/test/testdata.ts';
import { launchBrowser, withAppPage } from './support/browser.ts';
import { settle, switchLanguage, waitForShell, type Language } from './support/shell.ts';
import { signIn } from './support/sign-in.ts';

const baseURL = inject('baseURL');
let browser: Browser;
let dir: string;

beforeAll(async () => {
  browser = await launchBrowser();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'pathology-e2e-parse-'));
});

afterAll(async () => {
  await browser?.close();
  await fs.rm(dir, { recursive: true, force: true });
});

const SLIDE = slidePath('CMU-1-Small-Region.svs');

const parseFailed = (language: Language, filename: string) =>
  language === 'en'
    ? `Error while parsing the file: ${filename}`
    : `ファイルの解析中にエラーが発生しました: ${filename}`;

/** A stored one-entry zip whose central directory has been overwritten: its end record points at zeros. */
function brokenZip(): Buffer {
  const name = Buffer.from('slide.vsi');
  const data = Buffer.from('vsi header');
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(name.length, 26);
  const central = Buffer.alloc(46 + name.length);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length, 12);
  end.writeUInt32LE(local.length + name.length + data.length, 16);
  return Buffer.concat([local, name, data, central, end]);
}

describe('uploads: a file that cannot be read as its type says', () => {
  it.each(['en', 'ja'] as const)(
    'is named in the list dialog, which keeps the other files of the batch (%s)',
    async (language) => {
      const folder = await fs.mkdtemp(path.join(dir, `dialog-${language}-`));
      const good = path.join(folder, 'good-slide.svs');
      const fakeTiff = path.join(folder, 'not-a-tiff.tif');
      const zip = path.join(folder, 'broken-listing.zip');
      await fs.copyFile(SLIDE, good);
      await fs.writeFile(fakeTiff, 'This text file only says it is a TIFF.\n');
      await fs.writeFile(zip, brokenZip());
      await withAppPage(browser, baseURL, `upload-parse-dialog-${language}`, async (app) => {
        const { page } = app;
        await signIn(page, 'member', '/cases');
        await waitForShell(page);
        await switchLanguage(page, language);
        await page.locator('[data-testid="case-table"][aria-busy="false"]').waitFor();
        await page.getByTestId('open-upload-dialog').first().click();
        const dialog = page.getByTestId('upload-dialog');
        await dialog.getByTestId('case-picker').fill(`E2E-PARSE-${language}-${Date.now()}`);
        await dialog.getByTestId('case-status').waitFor();
        await dialog.getByTestId('dialog-file-input').setInputFiles([good, fakeTiff, zip]);

        const alert = dialog.getByTestId('parse-error-alert');
        await alert.waitFor();
        await expect.poll(() => alert.getByRole('listitem').allTextContents()).toEqual([
          parseFailed(language, 'not-a-tiff.tif'),
          parseFailed(language, 'broken-listing.zip'),
        ]);
        await expect.poll(() => dialog.getByTestId('draft-file').count()).toBe(1);
        expect(await dialog.getByTestId('draft-file').innerText()).toContain('good-slide.svs');
        await expect.poll(() => dialog.getByTestId('upload-submit').isEnabled()).toBe(true);
        await settle(page);
        await app.screenshot(`upload-parse-dialog-${language}`);
        expect(app.consoleErrors).toEqual([]);
      });
    },
  );

  it.each(['en', 'ja'] as const)(
    'returns the bulk flow to its parsing error, and Back keeps the other files (%s)',
    async (language) => {
      const folder = await fs.mkdtemp(path.join(dir, `bulk-${language}-`));
      const n = Date.now();
      const good = path.join(folder, `E2E-PARSE-${n}--good.svs`);
      const fakeTiff = path.join(folder, `E2E-PARSE-${n}--fake.tif`);
      const gone = path.join(folder, `E2E-PARSE-${n}--changed.svs`);
      await fs.copyFile(SLIDE, good);
      await fs.copyFile(SLIDE, gone);
      await fs.writeFile(fakeTiff, 'Not a TIFF either.\n');
      await withAppPage(browser, baseURL, `upload-parse-bulk-${language}`, async (app) => {
        const { page } = app;
        await signIn(page, 'member', '/bulk-upload');
        await waitForShell(page);
        await switchLanguage(page, language);
        await page.locator('[data-testid="bulk-upload"][data-step="adding"]').waitFor();
        await page.getByTestId('bulk-file-input').setInputFiles([good, fakeTiff, gone]);
        await expect.poll(() => page.getByTestId('bulk-file-row').count()).toBe(3);
        // Changed on disk after it was chosen: the browser refuses to read it (NotReadableError).
        await fs.writeFile(gone, 'replaced');

        await page.getByTestId('bulk-preview').click();
        await page.locator('[data-testid="bulk-upload"][data-step="parsingError"]').waitFor();
        const alert = page.getByTestId('bulk-parse-error');
        expect((await alert.innerText()).split('\n').filter(Boolean)).toEqual([
          parseFailed(language, path.basename(fakeTiff)),
          parseFailed(language, path.basename(gone)),
        ]);
        await expect.poll(() => page.getByTestId('bulk-file-row').count()).toBe(1);
        await settle(page);
        await app.screenshot(`upload-parse-bulk-${language}`);

        await page.getByTestId('bulk-back').click();
        await page.locator('[data-testid="bulk-upload"][data-step="adding"]').waitFor();
        expect(await page.getByTestId('bulk-file-row').allInnerTexts()).toEqual([
          expect.stringContaining(path.basename(good)),
        ]);
        await page.getByTestId('bulk-preview').click();
        await page.locator('[data-testid="bulk-upload"][data-step="previewing"]').waitFor();
        await page.getByTestId('bulk-back').click();
        await page.getByTestId('bulk-reset').click();
        expect(app.consoleErrors).toEqual([]);
      });
    },
  );
});
