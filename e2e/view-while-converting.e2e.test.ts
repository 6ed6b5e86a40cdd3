import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Image } from '@pathology/contract';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_GROUPS } from '../apps/server/src/db/seed/demo-groups.ts';
import { slidePath } from '../apps/server/test/testdata.ts';
import { startAppServer, type AppServer } from './support/app-server.ts';
import { launchBrowser, withAppPage } from './support/browser.ts';
import { apiCall } from './support/case-api.ts';
import { createCase, uploadImage, waitUntilAvailable } from './support/slides.ts';
import { settle, switchLanguage, waitForShell } from './support/shell.ts';
import { signIn } from './support/sign-in.ts';

const TILE_URL = /\/iiif\/2\/([^/]+)\/[^/]+\/[^/]+\/0\/default\.jpg/;
const INFO_URL = /\/iiif\/2\/[^/]+\/info\.json/;
const VIEWABLE_EN = /^Viewable — (building pyramid \d+ %|pyramid queued)$/;
const VIEWABLE_JA = /^表示可能 — (ピラミッド作成中 \d+ %|ピラミッド作成待ち)$/;
const SLIDE = 'CMU-1-Small-Region.svs';

let server: AppServer;
let browser: Browser;
let holdDir: string;

/** Lets the image's held conversion hand its pyramid over (CONVERT_HOLD). */
const release = (imageId: string) => fs.writeFile(path.join(holdDir, imageId), '');

beforeAll(async () => {
  // A server of its own, whose conversions hold their pyramid until the test releases them, by the setting made for
  // this (not a mock): the slide is looked at from its original however fast the machine converts it.
  holdDir = await fs.mkdtemp(path.join(os.tmpdir(), 'pathology-e2e-hold-'));
  [server, browser] = await Promise.all([
    startAppServer({ env: { CONVERT_HOLD: holdDir }, logName: 'view-while-converting-server.log' }),
    launchBrowser(),
  ]);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (holdDir) await fs.rm(holdDir, { recursive: true, force: true });
});

describe('viewing a slide while its pyramid builds', () => {
  it('opens the real slide from the image card at once, draws its tiles with a progress badge, and hands over without a reload', async () => {
    await withAppPage(browser, server.url, 'view-while-converting', async (app) => {
      const { page } = app;
      const tiles: { status: number; at: number }[] = [];
      let infoRequests = 0;
      page.on('response', (response) => {
        if (INFO_URL.test(response.url())) infoRequests += 1;
        if (TILE_URL.test(response.url())) tiles.push({ status: response.status(), at: Date.now() });
      });

      await signIn(page, 'member', '/organizations');
      await waitForShell(page);
      await switchLanguage(page, 'en');
      const created = await createCase(page, `E2E-EARLY-${Date.now()}`, DEMO_GROUPS.central.name);
      const imageId = await uploadImage(page, created.id, slidePath('CMU-1-Small-Region.svs'));
      const statusNow = async () => ((await apiCall(page, 'GET', `/images/${imageId}`)).json as Image).status;

      // The card offers View while the image is still being converted, under the thumbnail cut from the original.
      await page.goto(`/cases/${created.id}/images`);
      const card = page.getByTestId('case-image-card');
      const view = card.getByTestId('case-image-view');
      await view.waitFor();
      expect(await view.innerText()).toBe('View');
      const thumbnail = card.getByTestId('image-thumbnail');
      await page.locator('[data-testid="image-thumbnail"][data-state="loaded"]').waitFor({ timeout: 15_000 });
      const picture = thumbnail.locator('img');
      await expect
        .poll(() => picture.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth))
        .toBe(278);
      expect(await card.getByTestId('image-thumbnail-status').innerText()).toMatch(VIEWABLE_EN);
      expect(await statusNow()).not.toBe('available');
      await settle(page, 300);
      await app.screenshot('image-card-while-converting-en');
      await switchLanguage(page, 'ja');
      await expect.poll(() => view.innerText()).toBe('表示');
      await app.screenshot('image-card-while-converting-ja');
      await switchLanguage(page, 'en');
      await view.click();
      await page.locator('[data-testid="viewer-canvas"][data-state="ready"]').waitFor({ timeout: 30_000 });
      await expect.poll(() => tiles.filter((tile) => tile.status === 200).length).toBeGreaterThan(0);
      const badge = page.getByTestId('viewer-conversion-badge');
      await badge.waitFor();
      expect(await badge.innerText()).toMatch(
        /^(Building pyramid \d+ %|Pyramid queued: shown from the original file)$/,
      );
      // Tiles were drawn before the conversion ended.
      expect(await statusNow()).not.toBe('available');
      await settle(page, 800);
      await app.screenshot('viewer-building-pyramid-en');

      await switchLanguage(page, 'ja');
      await expect.poll(async () => badge.innerText()).toMatch(/^ピラミッド作成中 \d+ %$|^ピラミッド作成待ち/);
      await app.screenshot('viewer-building-pyramid-ja');

      // The hand-over: the badge goes, the viewer keeps its slide (no second info.json), and tiles keep coming.
      await release(imageId);
      await waitUntilAvailable(page, imageId);
      await badge.waitFor({ state: 'detached', timeout: 20_000 });
      expect(infoRequests).toBe(1);
      await page.getByRole('button', { name: '拡大', exact: true }).click();
      const handedOver = Date.now();
      await expect
        .poll(() => tiles.filter((tile) => tile.at > handedOver && tile.status === 200).length)
        .toBeGreaterThan(0);
      expect(tiles.filter((tile) => tile.status !== 200 && tile.status !== 304)).toEqual([]);
      expect(await page.getByTestId('viewer-canvas').getAttribute('data-state')).toBe('ready');
    });
  }, 300_000);

  it('after an upload offers View slide in the dialog and the toast; list, row and card say viewable with the progress; the viewer has its scale before the hand-over (ja, en)', async () => {
    await withAppPage(browser, server.url, 'view-after-upload', async (app) => {
      const { page } = app;
      const caseNumber = `E2E-VIEW-${Date.now()}`;
      await signIn(page, 'member', '/cases');
      await waitForShell(page);
      await switchLanguage(page, 'en');
      await page.locator('[data-testid="case-table"][aria-busy="false"]').waitFor();

      await page.getByTestId('open-upload-dialog').click();
      const dialog = page.getByRole('dialog', { name: 'Add Images' });
      await dialog.getByLabel('Case number').fill(caseNumber);
      await dialog.getByText('New case', { exact: true }).waitFor();
      await dialog.getByTestId('dialog-file-input').setInputFiles(slidePath(SLIDE));
      await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
      await dialog.locator('[data-testid="upload-item"][data-status="uploaded"]').waitFor({ timeout: 60_000 });
      const viewInDialog = dialog.getByTestId('upload-view-slide');
      expect(await viewInDialog.innerText()).toBe('View slide');
      const viewInToast = page.getByTestId('upload-toast-view-slide');
      expect(await viewInToast.innerText()).toBe('View slide');
      await app.screenshot('upload-view-slide-en');

      // The dialog's action opens the viewer: magnification, µm/px and scale bar are there before the hand-over.
      await viewInDialog.click();
      await page.waitForURL(/\/cases\/[0-9a-f-]{36}\/images\/[0-9a-f-]{36}/);
      const [, caseId = '', imageId = ''] = /\/cases\/([^/]+)\/images\/([^/?]+)/.exec(page.url()) ?? [];
      await page.locator('[data-testid="viewer-canvas"][data-state="ready"]').waitFor({ timeout: 30_000 });
      await page.getByTestId('viewer-conversion-badge').waitFor();
      await page.getByTestId('scale-bar').waitFor();
      expect(await page.getByTestId('zoom-text').innerText()).toMatch(/^×/);
      const shown = (await apiCall(page, 'GET', `/images/${imageId}`)).json as Image;
      expect(shown.status).not.toBe('available');
      expect(shown.magnification).toBe(20);
      await settle(page, 800);
      await app.screenshot('viewer-scale-before-hand-over-en');

      // The case list: the row's status and the expanded image line say viewable, with the progress.
      for (const [language, pattern] of [
        ['en', VIEWABLE_EN],
        ['ja', VIEWABLE_JA],
      ] as const) {
        await switchLanguage(page, language);
        await page.goto('/cases');
        await page.locator('[data-testid="case-table"][aria-busy="false"]').waitFor();
        const row = page.getByTestId('case-row').filter({ hasText: caseNumber });
        const status = row.getByTestId('case-image-status').getByTestId('image-viewable-converting');
        await expect.poll(() => status.innerText()).toMatch(pattern);
        await row.getByTestId('case-expand').click();
        const line = page.getByTestId('case-image').filter({ hasText: SLIDE });
        await expect.poll(() => line.getByTestId('image-viewable-converting').innerText()).toMatch(pattern);
        await settle(page, 300);
        await app.screenshot(`case-list-viewable-${language}`);

        await page.goto(`/cases/${caseId}/images`);
        const card = page.getByTestId('case-image-card').filter({ hasText: SLIDE });
        await card.locator('[data-testid="image-thumbnail"][data-state="loaded"]').waitFor({ timeout: 15_000 });
        await expect.poll(() => card.getByTestId('image-thumbnail-status').innerText()).toMatch(pattern);
        await settle(page, 300);
        await app.screenshot(`image-card-viewable-${language}`);
      }
      expect(((await apiCall(page, 'GET', `/images/${imageId}`)).json as Image).status).not.toBe('available');
      // Not left held: the server's stop would wait its shutdown grace for the conversion.
      await release(imageId);
    });
  }, 300_000);
});
