import fs from 'node:fs/promises';
import type { Image, ImageSearchRequest, ImageSearchResponse } from '@pathology/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slidePath } from '../apps/server/test/testdata.ts';
import { startAppServer, type AppServer } from './support/app-server.ts';
import { launchBrowser, withAppPage } from './support/browser.ts';
import { dismissToasts } from './support/case-api.ts';
import {
  countChaosFailures,
  differingBlocks,
  meanBrightness,
  serverChaosFailures,
  trackTiles,
  untilShown,
  zoomToFullResolution,
  type ChaosPart,
} from './support/chaos.ts';
import { settle, switchLanguage, waitForShell } from './support/shell.ts';
import { accessToken, signIn } from './support/sign-in.ts';
import { slideCopies } from './support/test-files.ts';

/**
 * A server of this file's own (its own data folder) whose case list, image, upload and IIIF routes answer late and
 * fail almost a third of the time: often enough that every part of the journey meets failures, while each retry still
 * passes more often than not.
 */
const CHAOS = 'delay:100-400,errors:0.3,routes:/api/v1/cases*;/api/v1/images*;/api/v1/uploads*;/iiif/*';
const SLIDE = 'CMU-1-Small-Region.svs';
/** Files per upload round: three files meet a failure in nine rounds of ten; rounds go on until one has. */
const FILES_PER_ROUND = 3;
const MAX_ROUNDS = 6;
let server: AppServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([
    startAppServer({ env: { CHAOS }, logName: 'chaos-server.log' }),
    launchBrowser(),
  ]);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('CHAOS: a demo server that delays and fails the case routes on purpose', () => {
  it.each(['en', 'ja'] as const)('says so in a banner, and the case list still loads (%s)', async (language) => {
    await withAppPage(browser, server.url, `chaos-${language}`, async (app) => {
      const { page } = app;
      await signIn(page, 'member', '/cases');
      await waitForShell(page);
      await switchLanguage(page, language);
      const banner = page.getByTestId('chaos-banner');
      await banner.waitFor();
      expect(await banner.innerText()).toContain(
        language === 'en' ? 'Test mode: requests are delayed and fail on purpose' : 'テストモード',
      );
      expect(await banner.innerText()).toContain('/api/v1/cases*');
      // Failed loads are retried; an error state that remains offers Retry.
      await expect
        .poll(
          async () => {
            const retry = page.getByRole('button', { name: language === 'en' ? 'Retry' : '再試行' });
            if (await retry.isVisible()) await retry.click();
            return page.locator('[data-testid="case-table"][aria-busy="false"] tbody tr').count();
          },
          { timeout: 60_000, interval: 1000 },
        )
        .toBeGreaterThan(0);
      await settle(page);
      await app.screenshot(`chaos-banner-${language}`);
    });
  });
});

/** The images of a case through the API with the page's session, asked again while CHAOS fails it. */
async function caseImages(page: Page, caseId: string): Promise<Image[]> {
  const request: ImageSearchRequest = {
    query: [{ field: 'caseId', operator: 'is', value: caseId }],
    order: { field: 'displayName', direction: 'asc' },
    page: 1,
    limit: 100,
  };
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const response = await page.request.post('/api/v1/images/search', {
      headers: { Authorization: `Bearer ${await accessToken(page)}` },
      data: request,
    });
    if (response.status() === 200) return ((await response.json()) as ImageSearchResponse).data;
    expect(response.status()).toBe(503);
  }
  throw new Error(`the images of case ${caseId} could not be read in 20 tries`);
}

describe('CHAOS: the case list, an upload and the viewer recover from failures', () => {
  it('loads the list, uploads and converts every file, and shows the whole slide', async () => {
    const copies = await slideCopies(
      slidePath(SLIDE),
      Array.from({ length: FILES_PER_ROUND * MAX_ROUNDS }, (_, index) => `chaos-${index + 1}.svs`),
    );
    let viewerPath = '';
    let chaosShot: Buffer = Buffer.alloc(0);
    let chaosNavigatorBrightness = 0;
    const failuresBefore = await serverChaosFailures(server.url);
    const failuresSeen: Record<ChaosPart, number> = { cases: 0, uploads: 0, tiles: 0 };
    try {
      await withAppPage(browser, server.url, 'chaos-recovery', async (app) => {
        const { page } = app;
        const seen = countChaosFailures(page);
        const tiles = trackTiles(page);
        let errorShots = 0;
        const shootErrorState = (name: string) => async () => {
          await settle(page);
          await app.screenshot(`chaos-error-state-${name}`);
          errorShots += 1;
        };
        await signIn(page, 'member', '/cases');
        await waitForShell(page);
        await switchLanguage(page, 'en');

        // The case list, loaded again until a load of it has met a failure.
        const rows = page.locator('[data-testid="case-table"][aria-busy="false"] tbody tr');
        for (let round = 1; seen.cases === 0; round += 1) {
          expect(round, 'no case list request failed in 15 loads').toBeLessThanOrEqual(15);
          if (round > 1) {
            await page.reload();
            await waitForShell(page);
          }
          await untilShown(page, async () => (await rows.count()) > 0, shootErrorState('case-list'));
        }

        // Uploads through the dialog, a new case each round, until the tus requests of a round have met a failure.
        const rounds: { caseNumber: string; caseId: string; files: string[] }[] = [];
        const stamp = Date.now();
        while (seen.uploads === 0 && (await serverChaosFailures(server.url)).uploads === failuresBefore.uploads) {
          expect(rounds.length, `no upload request failed in ${MAX_ROUNDS} rounds`).toBeLessThan(MAX_ROUNDS);
          const files = copies.files.slice(rounds.length * FILES_PER_ROUND, (rounds.length + 1) * FILES_PER_ROUND);
          const caseNumber = `CHAOS-${stamp}-${rounds.length + 1}`;
          await page.getByRole('button', { name: 'Add Images', exact: true }).click();
          const dialog = page.getByRole('dialog', { name: 'Add Images' });
          await dialog.getByLabel('Case number').fill(caseNumber);
          await dialog.getByText('New case', { exact: true }).waitFor({ timeout: 60_000 });
          await dialog.getByTestId('dialog-file-input').setInputFiles(files);
          await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
          let reconnectingShot = false;
          await expect
            .poll(
              async () => {
                if (!reconnectingShot && (await dialog.getByTestId('upload-reconnecting').count()) > 0) {
                  reconnectingShot = true;
                  await app.screenshot('chaos-upload-reconnecting-en');
                }
                return dialog.locator('[data-testid="upload-item"][data-status="uploaded"]').count();
              },
              { timeout: 120_000, interval: 250 },
            )
            .toBe(files.length);
          await dialog.getByText(`${files.length} of ${files.length} uploaded`).waitFor();
          const caseLink = dialog.getByTestId('upload-item').first().getByRole('link', { name: caseNumber });
          const caseId = (await caseLink.getAttribute('href'))?.split('/')[2] ?? '';
          rounds.push({ caseNumber, caseId, files });
          await app.screenshot(`chaos-upload-round-${rounds.length}-en`);
          // The "Upload completed" toasts pile up over the dialog's corner.
          await dismissToasts(page);
          await dialog.getByRole('button', { name: 'Close', exact: true }).click();
          await dialog.waitFor({ state: 'hidden' });
        }

        // Nothing lost: every file of every round is an image of its case, whole, and converts.
        const names = (files: string[]) => files.map((file) => file.split('/').at(-1) ?? file).sort();
        const { size } = await fs.stat(slidePath(SLIDE));
        for (const { caseId, files } of rounds) {
          await page.goto(`/cases/${caseId}/images`);
          const cards = page.locator('[data-testid="case-image-card"][data-status="available"]');
          await untilShown(page, async () => (await cards.count()) === files.length, shootErrorState('images'), 180_000);
          // Thumbnails that failed are asked for again while on screen, until each shows.
          const thumbnails = page.getByTestId('case-image-card').getByTestId('image-thumbnail');
          let thumbnailErrorShot = false;
          await expect
            .poll(
              async () => {
                if (!thumbnailErrorShot && (await thumbnails.and(page.locator('[data-state="error"]')).count()) > 0) {
                  thumbnailErrorShot = true;
                  await app.screenshot('chaos-thumbnail-error-en');
                }
                return thumbnails.and(page.locator('[data-state="loaded"]')).count();
              },
              { timeout: 90_000, interval: 250 },
            )
            .toBe(files.length);
          const images = await caseImages(page, caseId);
          expect(images.map((image) => image.filename).sort()).toEqual(names(files));
          expect(images.every((image) => image.size === size && image.status === 'available')).toBe(true);
          viewerPath = `/cases/${caseId}/images/${images[0]?.id ?? ''}`;
        }
        await settle(page);
        await app.screenshot('chaos-images-available-en');

        // The viewer: the slide opens and, at full resolution, every tile arrives despite the failures.
        await page.goto(viewerPath);
        const ready = page.locator('[data-testid="viewer-canvas"][data-state="ready"]');
        await untilShown(page, async () => (await ready.count()) === 1, shootErrorState('viewer'));
        await zoomToFullResolution(page, page.getByTestId('zoom-text'));
        await tiles.settled();
        chaosShot = await page.getByTestId('viewer-canvas').screenshot({ animations: 'disabled' });
        chaosNavigatorBrightness = await meanBrightness(
          await page.getByTestId('viewer-canvas').locator('.navigator').screenshot({ animations: 'disabled' }),
        );
        await app.screenshot('chaos-viewer-full-resolution-en');
        console.info(`e2e chaos: failures the page met ${JSON.stringify(seen)}, error states shot ${errorShots}`);
        Object.assign(failuresSeen, seen);
      });

      // The same view where every failed tile is asked again by the test until it arrives: the reference picture.
      await withAppPage(browser, server.url, 'chaos-reference', async (app) => {
        const { page } = app;
        await page.route(/\/iiif\/2\/.+\/default\.jpg/, async (route) => {
          for (;;) {
            const response = await route.fetch();
            if (response.status() !== 503) return route.fulfill({ response });
          }
        });
        const tiles = trackTiles(page);
        await signIn(page, 'member', viewerPath);
        await waitForShell(page);
        await switchLanguage(page, 'en');
        const ready = page.locator('[data-testid="viewer-canvas"][data-state="ready"]');
        await untilShown(page, async () => (await ready.count()) === 1, async () => undefined);
        await zoomToFullResolution(page, page.getByTestId('zoom-text'));
        await tiles.settled(5_000);
        const reference = await page.getByTestId('viewer-canvas').screenshot({ animations: 'disabled' });
        await app.screenshot('chaos-viewer-reference-en');
        // The navigator's frame may settle a few pixels apart between two pages: it is judged on its own, drawn.
        const canvas = await page.getByTestId('viewer-canvas').boundingBox();
        const navigator = await page.getByTestId('viewer-canvas').locator('.navigator').boundingBox();
        const margin = 8;
        const skip =
          canvas && navigator
            ? [
                {
                  x: navigator.x - canvas.x - margin,
                  y: navigator.y - canvas.y - margin,
                  width: navigator.width + 2 * margin,
                  height: navigator.height + 2 * margin,
                },
              ]
            : [];
        expect(await differingBlocks(chaosShot, reference, skip)).toEqual([]);
        expect(chaosNavigatorBrightness).toBeGreaterThan(80);
      });

      const failuresAfter = await serverChaosFailures(server.url);
      for (const part of ['cases', 'uploads', 'tiles'] as const) {
        expect(failuresAfter[part] - failuresBefore[part], `server: ${part}`).toBeGreaterThan(0);
      }
      expect(failuresSeen.cases, 'page: case list').toBeGreaterThan(0);
      expect(failuresSeen.tiles, 'page: tiles').toBeGreaterThan(0);
    } finally {
      await copies.remove();
    }
  }, 420_000);
});
