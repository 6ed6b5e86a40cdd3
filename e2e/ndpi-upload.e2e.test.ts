import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Image } from '@pathology/contract';
import type { Browser, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MACRO, writeNdpi } from '../apps/server/src/imaging/ndpi-writer.test-support.ts';
import { slidePath } from '../apps/server/test/testdata.ts';
import { startAppServer, type AppServer } from './support/app-server.ts';
import { launchBrowser, withAppPage } from './support/browser.ts';
import { apiCall } from './support/case-api.ts';
import { waitUntilAvailable } from './support/slides.ts';
import { settle, switchLanguage, waitForShell, type Language } from './support/shell.ts';
import { signIn } from './support/sign-in.ts';

const TILE_URL = /\/iiif\/2\/[^/]+\/[^/]+\/[^/]+\/0\/default\.jpg/;
const SLIDE = 'CMU-1-Small-Region.ndpi';

/** What the user reads in each language, in the dialog, on the viewer's badge and on the image card. */
const TEXT = {
  en: {
    dialog: 'Add Images',
    caseNumber: 'Case number',
    newCase: 'New case',
    upload: 'Upload',
    viewSlide: 'View slide',
    building: /^(Building pyramid \d+ %|Pyramid queued: shown from the original file)$/,
    macro: `Macro picture of ${SLIDE}`,
  },
  ja: {
    dialog: '画像を追加',
    caseNumber: '症例番号',
    newCase: '新しい症例',
    upload: 'アップロード',
    viewSlide: 'スライドを表示',
    building: /^(ピラミッド作成中 \d+ %|ピラミッド作成待ち（元ファイルから表示中）)$/,
    macro: `${SLIDE} のマクロ画像`,
  },
} as const satisfies Record<Language, unknown>;

let server: AppServer;
let browser: Browser;
let ndpi: string;
let holdDir: string;

beforeAll(async () => {
  // A NanoZoomer-style NDPI of the test slide's pixels (levels as restart-marked JPEG strips, a macro picture), made
  // here as OpenSlide reads it; and a server of its own whose conversions hold their pyramid until the test releases
  // them (CONVERT_HOLD), so the slide is opened from the upload dialog before the hand-over on a loaded machine too.
  ndpi = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'pathology-e2e-ndpi-')), SLIDE);
  holdDir = await fs.mkdtemp(path.join(os.tmpdir(), 'pathology-e2e-hold-'));
  [server, browser] = await Promise.all([
    startAppServer({
      env: { CONVERT_HOLD: holdDir },
      logName: 'ndpi-upload-server.log',
    }),
    launchBrowser(),
    writeNdpi(ndpi, {
      source: slidePath('CMU-1-Small-Region.svs'),
      sourceLens: 20,
      mpp: 0.5,
      levels: [
        { width: 2232, height: 2968, restartInterval: 93 },
        { width: 744, height: 992, restartInterval: 31 },
        { width: 248, height: 328, restartInterval: 31 },
      ],
    }),
  ]);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (ndpi) await fs.rm(path.dirname(ndpi), { recursive: true, force: true });
  if (holdDir) await fs.rm(holdDir, { recursive: true, force: true });
});

describe('uploading a Hamamatsu NDPI', () => {
  it.each(['en', 'ja'] as const)(
    'through the upload dialog: its tiles show before the conversion ends, then its macro picture is on the image card (%s)',
    async (language) => {
      const text = TEXT[language];
      await withAppPage(browser, server.url, `ndpi-upload-${language}`, async (app) => {
        const { page } = app;
        // Tiles cut from the original carry its ETag; the pyramid's do not.
        const tiles: { status: number; fromOriginal: boolean }[] = [];
        page.on('response', (response: Response) => {
          if (!TILE_URL.test(response.url())) return;
          const etag = response.headers().etag ?? '';
          tiles.push({ status: response.status(), fromOriginal: etag.startsWith('"original:') });
        });
        const caseNumber = `E2E-NDPI-${language}-${Date.now()}`;
        await signIn(page, 'member', '/cases');
        await waitForShell(page);
        await switchLanguage(page, language);
        await page.locator('[data-testid="case-table"][aria-busy="false"]').waitFor();

        await page.getByTestId('open-upload-dialog').click();
        const dialog = page.getByRole('dialog', { name: text.dialog });
        await dialog.getByLabel(text.caseNumber).fill(caseNumber);
        await dialog.getByText(text.newCase, { exact: true }).waitFor();
        await dialog.getByTestId('dialog-file-input').setInputFiles(ndpi);
        await dialog.getByRole('button', { name: text.upload, exact: true }).click();
        await dialog.locator('[data-testid="upload-item"][data-status="uploaded"]').waitFor({ timeout: 60_000 });
        const viewInDialog = dialog.getByTestId('upload-view-slide');
        expect(await viewInDialog.innerText()).toBe(text.viewSlide);
        await app.screenshot(`ndpi-uploaded-${language}`);

        // The slide opens at once and draws tiles decoded from the NDPI's restart segments while it converts.
        await viewInDialog.click();
        await page.waitForURL(/\/cases\/[0-9a-f-]{36}\/images\/[0-9a-f-]{36}/);
        const [, caseId = '', imageId = ''] = /\/cases\/([^/]+)\/images\/([^/?]+)/.exec(page.url()) ?? [];
        await page.locator('[data-testid="viewer-canvas"][data-state="ready"]').waitFor({ timeout: 30_000 });
        await expect
          .poll(() => tiles.filter((tile) => tile.status === 200 && tile.fromOriginal).length)
          .toBeGreaterThan(0);
        const badge = page.getByTestId('viewer-conversion-badge');
        await expect.poll(() => badge.innerText()).toMatch(text.building);
        const early = (await apiCall(page, 'GET', `/images/${imageId}`)).json as Image;
        expect(early).toMatchObject({ viewable: true, magnification: 20 });
        await settle(page, 800);
        await app.screenshot(`ndpi-viewer-before-pyramid-${language}`);

        // Once converted, the image card shows the scanner's macro picture of the glass under the thumbnail.
        await fs.writeFile(path.join(holdDir, imageId), '');
        const converted = await waitUntilAvailable(page, imageId);
        expect(converted.associatedImages).toContain('macro');
        await page.goto(`/cases/${caseId}/images`);
        const card = page.getByTestId('case-image-card').filter({ hasText: SLIDE });
        await card.locator('[data-testid="image-thumbnail"][data-state="loaded"]').waitFor({ timeout: 15_000 });
        await card.locator('[data-testid="case-image-macro"][data-state="loaded"]').waitFor({ timeout: 15_000 });
        const macro = card.getByRole('img', { name: text.macro, exact: true });
        await expect
          .poll(() => macro.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth))
          .toBe(MACRO.width);
        expect(tiles.filter((tile) => tile.status !== 200 && tile.status !== 304)).toEqual([]);
        await settle(page, 300);
        await app.screenshot(`ndpi-image-card-macro-${language}`);
      });
    },
    300_000,
  );
});
