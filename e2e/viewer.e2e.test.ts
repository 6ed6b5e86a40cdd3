import fs from 'node:fs/promises';
import { fromBitmapColor, type BitmapColorSettings } from '@pathology/contract';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_GROUPS } from '../apps/server/src/db/seed/demo-groups.ts';
import { slidePath } from '../apps/server/test/testdata.ts';
import { launchBrowser, withAppPage } from './support/browser.ts';
import { createCase, uploadImage, waitUntilAvailable } from './support/slides.ts';
import { dismissToasts } from './support/case-api.ts';
import { deleteCasesAsSuper } from './support/case-cleanup.ts';
import { settle, switchLanguage, waitForShell } from './support/shell.ts';
import { signIn } from './support/sign-in.ts';
import { zoomToFullResolution, zoomValue } from './support/viewer-zoom.ts';

const baseURL = inject('baseURL');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const CMU = 'CMU-1-Small-Region.svs';
const OME = 'multi-channel-z-series.ome.tif';
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** A IIIF tile (not info.json): /iiif/2/<layerId>/<region>/<size>/<rotation>/<quality>.<format>. */
const TILE_URL = /\/iiif\/2\/([^/]+)\/([^/]+)\/([^/]+)\/0\/default\.jpg(\?|$)/;
/**
 * A tile of the full-resolution level: a 512×512 region at 512×512 (scale 1). OpenSeadragon asks for the size as
 * 'w,h' (the server's profile is above level 0); 'w,' would mean the same.
 */
const FULL_RESOLUTION_TILE = /\/iiif\/2\/[^/]+\/\d+,\d+,512,512\/512,(512)?\/0\/default\.jpg/;

interface TileResponse {
  url: string;
  layerId: string;
  status: number;
  contentType: string;
  authorization: string | undefined;
}

/**
 * Whether the colour adjustment shows on the slide: a CSS filter (an SVG filter by id, `url(#viewer-colour-N)`) on
 * the canvases OpenSeadragon draws on. Neutral settings leave no filter.
 */
async function colourFiltered(page: Page): Promise<boolean> {
  const filters = await page
    .getByTestId('viewer-canvas')
    .locator('canvas')
    .evaluateAll((canvases) =>
      canvases.map((canvas) => (canvas as unknown as { style: { filter: string } }).style.filter),
    );
  return filters.some((filter) => filter.startsWith('url('));
}

describe('viewer: tiles, zoom, rotation, colour, layers, snapshot', () => {
  it('shows the real slides with their tools', async () => {
    let caseId: string | undefined;
    try {
      await withAppPage(browser, baseURL, 'viewer', async (app) => {
        const { page } = app;
        // Every tile response, with the request's Authorization header (tiles go through XHR to carry it).
        const tiles: TileResponse[] = [];
        page.on('response', (response) => {
          const match = TILE_URL.exec(response.url());
          if (!match) return;
          void (async () => {
            const [authorization, contentType] = await Promise.all([
              response.request().headerValue('authorization'),
              response.headerValue('content-type'),
            ]);
            tiles.push({
              url: response.url(),
              layerId: match[1] ?? '',
              status: response.status(),
              contentType: contentType ?? '',
              authorization: authorization ?? undefined,
            });
          })();
        });
        const goodTiles = (filter: (tile: TileResponse) => boolean = () => true) =>
          tiles.filter((tile) => tile.status === 200 && tile.contentType.startsWith('image/jpeg') && filter(tile));

        await signIn(page, 'member', '/organizations');
        await waitForShell(page);
        await switchLanguage(page, 'en');

        // A new case in a group of the member's, with both real slides uploaded through the API and converted.
        const created = await createCase(page, `E2E-VIEW-${Date.now()}`, DEMO_GROUPS.central.name);
        caseId = created.id;
        const cmuId = await uploadImage(page, created.id, slidePath(CMU));
        const omeId = await uploadImage(page, created.id, slidePath(OME));
        const cmu = await waitUntilAvailable(page, cmuId);
        const ome = await waitUntilAvailable(page, omeId);
        expect(cmu.magnification).toBe(20);
        expect(ome.imageLayerResources).toHaveLength(5);

        // While the case is on its way, the side panel neither offers snapshots nor says they are not allowed: the
        // case's answer is held back until the panel has been seen.
        let releaseCase = () => {};
        const caseHeld = new Promise<void>((resolve) => (releaseCase = resolve));
        const caseUrl = new RegExp(`/api/v1/cases/${created.id}$`);
        await page.route(caseUrl, async (route) => {
          await caseHeld;
          await route.continue();
        });
        // The CMU slide: tiles arrive, each with the bearer token.
        await page.goto(`/cases/${created.id}/images/${cmuId}`);
        await page.getByTestId('snapshot-loading').waitFor();
        expect(await page.getByTestId('snapshot-denied').count()).toBe(0);
        releaseCase();
        await page.getByTestId('snapshot-magnification').waitFor();
        await page.unroute(caseUrl);
        await page.locator('[data-testid="viewer-canvas"][data-state="ready"]').waitFor({ timeout: 30_000 });
        await expect.poll(() => goodTiles().length).toBeGreaterThan(0);
        expect(await page.getByTestId('viewer-title').innerText()).toBe(CMU);
        const cmuLayerId = cmu.imageLayerResources[0]?.id ?? '';
        expect(goodTiles().every((tile) => tile.layerId === cmuLayerId)).toBe(true);

        // The zoom text in the ×N form (the slide is a ×20 scan) and the scale bar.
        const zoomText = page.getByTestId('zoom-text');
        await zoomText.waitFor();
        expect(await zoomText.innerText()).toMatch(/^×\d+(\.\d+)?$/);
        const fitZoom = zoomValue(await zoomText.innerText());
        expect(fitZoom).toBeGreaterThan(0);
        expect(fitZoom).toBeLessThan(20);
        expect(await page.getByTestId('scale-bar').isVisible()).toBe(true);
        expect(await page.getByTestId('scale-bar-label').innerText()).toMatch(/^\d+(\.\d+)? (µm|mm)$/);
        await settle(page);
        await app.screenshot('viewer-cmu-en');

        await zoomToFullResolution(page, zoomText);
        // Tiles of the highest level (512 × 512 of the image at scale 1) load, with the token.
        await expect.poll(() => goodTiles((tile) => FULL_RESOLUTION_TILE.test(tile.url)).length).toBeGreaterThan(0);
        expect(tiles.length).toBeGreaterThan(0);
        expect(tiles.every((tile) => /^Bearer \S+$/.test(tile.authorization ?? ''))).toBe(true);
        expect(tiles.filter((tile) => tile.status !== 200)).toEqual([]);
        await settle(page, 800);
        await app.screenshot('viewer-cmu-full-resolution-en');

        // Two quick presses land on a step: each counts from where the view is going, not where its animation is.
        const zoomOut = page.getByRole('button', { name: 'Zoom out' });
        await zoomOut.click();
        await zoomOut.click();
        await expect.poll(async () => zoomValue(await zoomText.innerText())).toBe(5);

        // Rotate with R: the navigator's view box turns with the slide.
        const rotation = () =>
          page
            .getByTestId('viewer-canvas')
            .locator('.displayregioncontainer')
            .evaluate((element) => (element as unknown as { style: { transform: string } }).style.transform);
        expect(['', 'rotate(0deg)']).toContain(await rotation());
        await page.getByTestId('viewer-canvas').hover();
        await page.keyboard.press('r');
        await expect.poll(rotation).toBe('rotate(90deg)');
        await page.getByRole('button', { name: 'Rotate 90°' }).click();
        await expect.poll(rotation).toBe('rotate(180deg)');
        await page.getByRole('button', { name: 'Fit to screen' }).click();

        // The colour panel: brightness +20, shown on the canvas at once and saved (debounced) for this case.
        await page.getByRole('button', { name: 'Colour', exact: true }).click();
        const panel = page.getByTestId('colour-panel');
        await panel.waitFor();
        const brightness = panel.getByTestId('colour-brightness').getByRole('slider');
        expect(await brightness.getAttribute('aria-valuenow')).toBe('0');
        const saved = page.waitForResponse(
          (response) =>
            response.request().method() === 'POST' &&
            new URL(response.url()).pathname === '/api/v1/accounts/me/color' &&
            response.status() >= 200 &&
            response.status() < 300 &&
            fromBitmapColor(response.request().postDataJSON() as BitmapColorSettings).brightness === 20,
        );
        await brightness.focus();
        for (let press = 0; press < 20; press += 1) await brightness.press('ArrowRight');
        expect(await brightness.getAttribute('aria-valuenow')).toBe('20');
        await saved;
        await panel.getByTestId('colour-save-status').getByText('Saved').waitFor();
        await expect.poll(() => colourFiltered(page)).toBe(true);
        await settle(page);
        await app.screenshot('viewer-colour-en');

        // After a reload the saved brightness is back: on the slide at once (before the panel is opened), and on
        // the slider.
        await page.reload();
        await page.locator('[data-testid="viewer-canvas"][data-state="ready"]').waitFor({ timeout: 30_000 });
        await expect.poll(() => colourFiltered(page)).toBe(true);
        await page.getByRole('button', { name: 'Colour', exact: true }).click();
        const reloaded = page.getByTestId('colour-panel').getByTestId('colour-brightness').getByRole('slider');
        await expect.poll(() => reloaded.getAttribute('aria-valuenow')).toBe('20');
        await page.getByRole('button', { name: 'Colour', exact: true }).click();
        await page.getByTestId('colour-panel').waitFor({ state: 'hidden' });

        // The OME image: five layers; switching asks for tiles of another layer.
        await page.goto(`/cases/${created.id}/images/${omeId}`);
        await page.locator('[data-testid="viewer-canvas"][data-state="ready"]').waitFor({ timeout: 30_000 });
        const picker = page.getByTestId('viewer-side-panel').getByTestId('layer-picker');
        await expect.poll(() => picker.inputValue()).toMatch(/^5 layers : layer \d+/);
        const layers = [...ome.imageLayerResources].sort((a, b) => a.layerNumber - b.layerNumber);
        const isOme = (tile: TileResponse) => layers.some((layer) => layer.id === tile.layerId);
        await expect.poll(() => goodTiles(isOme).length).toBeGreaterThan(0);
        const current = await picker.inputValue();
        const shown = layers[Number(/layer (\d+)/.exec(current)?.[1]) - 1];
        expect(goodTiles(isOme).every((tile) => tile.layerId === shown?.id)).toBe(true);
        await picker.click();
        const names = (await page.getByRole('option').allInnerTexts()).map((name) => name.trim());
        expect(names).toHaveLength(5);
        const other = names.find((name) => name !== current) ?? '';
        await page.getByRole('option', { name: other, exact: true }).click();
        await expect.poll(() => picker.inputValue()).toBe(other);
        const otherLayer = layers[Number(/layer (\d+)/.exec(other)?.[1]) - 1];
        expect(otherLayer).toBeDefined();
        expect(otherLayer?.id).not.toBe(shown?.id);
        await expect.poll(() => goodTiles((tile) => tile.layerId === otherLayer?.id).length).toBeGreaterThan(0);
        await settle(page, 800);
        await app.screenshot('viewer-ome-layers-en');

        // Snapshot: a PNG download of what the viewer shows.
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          page.getByRole('button', { name: 'Snapshot' }).click(),
        ]);
        expect(download.suggestedFilename()).toBe(`${OME}-snapshot.png`);
        const png = await fs.readFile(await download.path());
        expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
        const { format, width = 0, height = 0 } = await sharp(png).metadata();
        expect(format).toBe('png');
        expect(width).toBeGreaterThan(0);
        expect(height).toBeGreaterThan(0);
        await dismissToasts(page);

        // The old address sends to the v2 viewer.
        await page.goto(`/cases/${created.id}/viewer/${cmuId}`);
        await page.waitForURL((url) => url.pathname === `/cases/${created.id}/images/${cmuId}`);
        await page.locator('[data-testid="viewer-canvas"][data-state="ready"]').waitFor({ timeout: 30_000 });
        expect(await page.getByTestId('viewer-title').innerText()).toBe(CMU);
        // Every tile of the journey carried the token, and none failed.
        expect(tiles.every((tile) => /^Bearer \S+$/.test(tile.authorization ?? ''))).toBe(true);
        expect(tiles.filter((tile) => tile.status !== 200)).toEqual([]);
        expect(app.consoleErrors).toEqual([]);
      });
    } finally {
      if (caseId !== undefined) await deleteCasesAsSuper(browser, baseURL, [{ id: caseId }]);
    }
  });
});
