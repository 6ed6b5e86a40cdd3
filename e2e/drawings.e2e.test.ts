import fs from 'node:fs/promises';
import {
  expandGeometry,
  measureDrawing,
  measurementText,
  micronsPerPixelXY,
  type Drawing,
  type DrawingList,
  type Image,
} from '@pathology/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_GROUPS } from '../apps/server/src/db/seed/demo-groups.ts';
import { slidePath } from '../apps/server/test/testdata.ts';
import { zipEntries } from '../apps/server/test/zip-entries.ts';
import { launchBrowser, withAppPage } from './support/browser.ts';
import { apiCall, toast } from './support/case-api.ts';
import { deleteCasesAsSuper } from './support/case-cleanup.ts';
import { settle, switchLanguage, waitForShell } from './support/shell.ts';
import { signIn } from './support/sign-in.ts';
import { getStorageItem } from './support/storage.ts';
import { createCase, uploadImage, waitUntilAvailable } from './support/slides.ts';

const baseURL = inject('baseURL');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/** The Aperio header of CMU-1-Small-Region.svs says MPP = 0.499. */
const CMU_MPP = 0.499;

async function openViewer(page: Page, caseId: string, imageId: string): Promise<void> {
  await page.goto(`/cases/${caseId}/images/${imageId}`);
  await page.locator('[data-testid="viewer-canvas"][data-state="ready"]').waitFor({ timeout: 30_000 });
}

/** Where a fraction of the slide area is on the page (the canvas box, 0–1 along each side). */
async function at(page: Page, fx: number, fy: number): Promise<[number, number]> {
  const box = (await page.getByTestId('viewer-canvas').boundingBox())!;
  return [box.x + box.width * fx, box.y + box.height * fy];
}

async function drag(page: Page, from: [number, number], to: [number, number]): Promise<void> {
  await page.mouse.move(...from);
  await page.mouse.down();
  await page.mouse.move(...to, { steps: 8 });
  await page.mouse.up();
}

async function layerDrawings(page: Page, image: Image, filter = 'ALL'): Promise<Drawing[]> {
  const layerId = image.imageLayerResources[0]!.id;
  const { json } = await apiCall(page, 'GET', `/images/${image.id}/layers/${layerId}/visibility/${filter}/drawings`);
  return (json as DrawingList).data.map((drawing) => ({ ...drawing, geometry: expandGeometry(drawing.geometry) }));
}

const drawnCount = (page: Page) => page.getByTestId('drawing-layer').getAttribute('data-drawn');

describe('drawings: draw, measure, save, filter, share and download on a real slide', () => {
  it('walks a pathologist through the drawing tools, then a colleague through what is shared', async () => {
    let caseId: string | undefined;
    try {
      let image: Image | undefined;
      await withAppPage(browser, baseURL, 'drawings-member', async (app) => {
        const { page } = app;
        await signIn(page, 'member', '/organizations');
        await waitForShell(page);
        await switchLanguage(page, 'en');
        const created = await createCase(page, `E2E-DRAW-${Date.now()}`, DEMO_GROUPS.central.name);
        caseId = created.id;
        image = await waitUntilAvailable(
          page,
          await uploadImage(page, created.id, slidePath('CMU-1-Small-Region.svs')),
        );
        await openViewer(page, created.id, image.id);
        await expect.poll(() => drawnCount(page)).toBe('0');

        // A rectangle with the B key, a polygon clicked corner by corner and closed with Enter, a ruler with M.
        await page.keyboard.press('b');
        await drag(page, await at(page, 0.3, 0.3), await at(page, 0.45, 0.45));
        await page.getByTestId('drawing-title').fill('Tumour area');
        await page.getByTestId('drawing-title').press('Enter');
        await page.keyboard.press('Escape');
        await page.getByTestId('drawing-tool-polygon').click();
        for (const [fx, fy] of [
          [0.55, 0.3],
          [0.7, 0.32],
          [0.66, 0.5],
          [0.56, 0.45],
        ] as const) {
          await page.mouse.click(...(await at(page, fx, fy)));
        }
        await page.keyboard.press('Enter');
        await page.keyboard.press('m');
        await drag(page, await at(page, 0.3, 0.7), await at(page, 0.7, 0.75));
        await expect.poll(() => drawnCount(page)).toBe('3');

        // The ruler's measurement, from the slide's own resolution (MPP 0.499).
        expect(micronsPerPixelXY(image.resolution)!.x).toBeCloseTo(CMU_MPP, 3);
        const shown = await page.getByTestId('drawing-measurement').innerText();
        expect(shown).toMatch(/^[\d,.]+ (µm|mm)$/);
        await settle(page);
        await app.screenshot('drawings-unsaved-en');

        // Not saved yet: leaving asks first; the Save button counts three changes; saving stores them.
        await page.getByTestId('viewer-back').click();
        await page.getByRole('dialog', { name: 'Unsaved drawings' }).waitFor();
        await page.getByRole('button', { name: 'Stay' }).click();
        expect(new URL(page.url()).pathname).toBe(`/cases/${created.id}/images/${image.id}`);
        const save = page.getByTestId('drawing-save');
        expect(await save.innerText()).toBe('Save (3)');
        await save.click();
        await expect.poll(async () => (await layerDrawings(page, image!)).length).toBe(3);
        const stored = await layerDrawings(page, image);
        const ruler = stored.find((drawing) => drawing.shapeType === 'ruler')!;
        const rulerMeasure = measureDrawing(ruler.geometry, micronsPerPixelXY(image.resolution));
        expect(shown).toBe(measurementText(rulerMeasure));
        const [start, end] = ruler.geometry.type === 'LineString' ? ruler.geometry.coordinates : [];
        const pixels = Math.hypot(end![0] - start![0], end![1] - start![1]);
        expect(rulerMeasure.length).toBeCloseTo(pixels * CMU_MPP, 0);
        expect(stored.find((drawing) => drawing.shapeType === 'rectangle')?.title).toBe('Tumour area');

        // Make the polygon private: select it with the select tool (V), switch, save.
        await page.keyboard.press('v');
        await page.mouse.click(...(await at(page, 0.62, 0.4)));
        await page.getByTestId('drawing-visibility').getByText('Private').click();
        await page.getByTestId('drawing-save').click();
        await expect
          .poll(async () => (await layerDrawings(page, image!, 'PRIVATE')).map((drawing) => drawing.shapeType))
          .toEqual(['polygon']);

        // After a reload the three are there; hiding titles and the PUBLIC filter are kept.
        await page.reload();
        await page.locator('[data-testid="viewer-canvas"][data-state="ready"]').waitFor();
        await expect.poll(() => drawnCount(page)).toBe('3');
        await page.getByTestId('drawing-show-menu').click();
        await page.getByTestId('drawing-show-titles').click();
        await page.keyboard.press('Escape');
        await page.getByTestId('drawing-visibility-filter').getByText('Public').click();
        await expect.poll(() => drawnCount(page)).toBe('2');
        await page.reload();
        await page.locator('[data-testid="viewer-canvas"][data-state="ready"]').waitFor();
        await expect.poll(() => drawnCount(page)).toBe('2');
        const preferences = JSON.parse((await getStorageItem(page, 'localStorage', 'drawing')) ?? '{}') as {
          showTitle?: boolean;
        };
        expect(preferences.showTitle).toBe(false);
        expect(await page.getByTestId('drawing-visibility-filter').locator('input[value="PUBLIC"]').isChecked()).toBe(
          true,
        );
        await page.getByTestId('drawing-visibility-filter').getByText('All').click();
        await expect.poll(() => drawnCount(page)).toBe('3');

        // Download: a zip with the GeoJSON QuPath imports, coordinates as drawn.
        const downloading = page.waitForEvent('download');
        await page.getByTestId('drawing-download').click();
        const download = await downloading;
        expect(download.suggestedFilename()).toMatch(/^drawings-\d{8}-\d{4}\.zip$/);
        await toast(page, 'Image drawings downloaded successfully.').waitFor();
        const entries = await zipEntries(await fs.readFile(await download.path()));
        const geojson = JSON.parse(entries.get('CMU-1-Small-Region.svs/drawings.geojson')!.toString()) as {
          type: string;
          features: { id: string; geometry: unknown; properties: { objectType: string } }[];
        };
        expect(geojson.type).toBe('FeatureCollection');
        expect(geojson.features).toHaveLength(3);
        for (const feature of geojson.features) {
          expect(feature.properties.objectType).toBe('annotation');
          expect(feature.geometry).toEqual(stored.find((drawing) => drawing.id === feature.id)!.geometry);
        }

        // In Japanese: the tools speak Japanese.
        await switchLanguage(page, 'ja');
        await openViewer(page, created.id, image.id);
        await expect.poll(() => drawnCount(page)).toBe('3');
        expect(await page.getByTestId('drawing-tool-rectangle').getAttribute('aria-label')).toBe('矩形 (B)');
        await page.keyboard.press('v');
        await page.mouse.click(...(await at(page, 0.5, 0.725)));
        await page.getByTestId('drawing-details').waitFor();
        expect(await page.getByTestId('drawing-details').innerText()).toContain('定規');
        await settle(page);
        await app.screenshot('drawings-ja');
        expect(app.consoleErrors).toEqual([]);
      });

      // A colleague in the group sees the public drawings, not the private polygon.
      await withAppPage(browser, baseURL, 'drawings-colleague', async (app) => {
        const { page } = app;
        await signIn(page, 'admin', '/organizations');
        await waitForShell(page);
        await switchLanguage(page, 'en');
        await openViewer(page, caseId!, image!.id);
        await expect.poll(() => drawnCount(page)).toBe('2');
        const seen = await layerDrawings(page, image!);
        expect(seen.map((drawing) => drawing.shapeType).sort()).toEqual(['rectangle', 'ruler']);
        await settle(page);
        await app.screenshot('drawings-colleague-en');
        expect(app.consoleErrors).toEqual([]);
      });
    } finally {
      if (caseId) await deleteCasesAsSuper(browser, baseURL, [{ id: caseId }]);
    }
  });
});

type ScreenBox = { x: number; y: number; width: number; height: number };
const apart = (a: ScreenBox, b: ScreenBox) =>
  a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;

describe('drawings: the details card beside the shape, and an edit saved across a filter change', () => {
  it('keeps the next drag free and saves a title edit made before switching to Private', async () => {
    let caseId: string | undefined;
    try {
      await withAppPage(browser, baseURL, 'drawings-details', async (app) => {
        const { page } = app;
        await signIn(page, 'member', '/organizations');
        await waitForShell(page);
        await switchLanguage(page, 'en');
        const created = await createCase(page, `E2E-DRAW-CARD-${Date.now()}`, DEMO_GROUPS.central.name);
        caseId = created.id;
        const image = await waitUntilAvailable(
          page,
          await uploadImage(page, created.id, slidePath('CMU-1-Small-Region.svs')),
        );
        await openViewer(page, created.id, image.id);
        await expect.poll(() => drawnCount(page)).toBe('0');

        // The card opens beside the new rectangle, not over it and not at the top left.
        await page.keyboard.press('b');
        const [from, to] = [await at(page, 0.3, 0.3), await at(page, 0.45, 0.45)];
        await drag(page, from, to);
        const details = page.getByTestId('drawing-details');
        await details.waitFor();
        // Placed once the slide's transform is known (hidden until then, so it never flashes at the corner).
        await expect.poll(() => details.locator('xpath=..').getAttribute('style')).toContain('visibility: visible');
        const card = (await details.boundingBox())!;
        expect(apart(card, { x: from[0], y: from[1], width: to[0] - from[0], height: to[1] - from[1] })).toBe(true);
        // The next shape starts at the top left, where the card used to open: the drag draws, the card takes nothing.
        const [nextFrom, nextTo] = [await at(page, 0.1, 0.18), await at(page, 0.2, 0.26)];
        expect(
          apart(card, {
            x: nextFrom[0],
            y: nextFrom[1],
            width: nextTo[0] - nextFrom[0],
            height: nextTo[1] - nextFrom[1],
          }),
        ).toBe(true);
        await drag(page, nextFrom, nextTo);
        await expect.poll(() => drawnCount(page)).toBe('2');
        await page.getByTestId('drawing-save').click();
        await expect.poll(async () => (await layerDrawings(page, image)).length).toBe(2);

        // "New drawings are" labels the visibility of new drawings in the options.
        await page.getByTestId('drawing-options').click();
        await expect.poll(() => page.getByText('New drawings are', { exact: true }).isVisible()).toBe(true);
        await page.keyboard.press('Escape');

        // Edit a saved title, narrow the list to Private (the rectangle is public), then save: a PATCH, not a 409.
        await page.keyboard.press('v');
        await page.keyboard.press('Escape');
        await details.waitFor({ state: 'detached' });
        await page.mouse.click(...(await at(page, 0.375, 0.375)));
        await page.getByTestId('drawing-title').fill('Edited before the filter');
        await page.getByTestId('drawing-title').press('Enter');
        await page.keyboard.press('Escape');
        await page.getByTestId('drawing-visibility-filter').getByText('Private').click();
        const save = page.getByTestId('drawing-save');
        await expect.poll(() => save.innerText()).toBe('Save (1)');
        await save.click();
        await expect.poll(() => save.innerText()).toBe('Save drawings');
        const stored = await layerDrawings(page, image);
        // Still two drawings: the edit updated one, it did not create a copy.
        expect(stored).toHaveLength(2);
        expect(stored.map((drawing) => drawing.title)).toContain('Edited before the filter');
        await settle(page);
        await app.screenshot('drawings-details-beside-en');
        expect(app.consoleErrors).toEqual([]);
      });
    } finally {
      if (caseId) await deleteCasesAsSuper(browser, baseURL, [{ id: caseId }]);
    }
  });
});
