import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expandGeometry, type DrawingList, type Image } from '@pathology/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_GROUPS } from '../apps/server/src/db/seed/demo-groups.ts';
import {
  nucleiInside,
  nucleusFeature,
  nucleusLayout,
  syntheticDetectionsText,
  SYNTHETIC_CLASSES,
} from '../apps/server/test/synthetic-detections.ts';
import { slidePath } from '../apps/server/test/testdata.ts';
import { launchBrowser, withAppPage } from './support/browser.ts';
import { apiCall } from './support/case-api.ts';
import { deleteCasesAsSuper } from './support/case-cleanup.ts';
import { settle, switchLanguage, waitForShell } from './support/shell.ts';
import { signIn } from './support/sign-in.ts';
import { createCase, uploadImage, waitUntilAvailable } from './support/slides.ts';

const baseURL = inject('baseURL');
let browser: Browser;
let folder: string;

/** 2,000 nuclei on a grid over most of CMU-1-Small-Region (2220 × 2967 pixels). */
const LAYOUT = nucleusLayout({ x: 100, y: 100, width: 2000, height: 2700 }, 2_000);

beforeAll(async () => {
  browser = await launchBrowser();
  folder = await fs.mkdtemp(path.join(os.tmpdir(), 'pathology-e2e-detections-'));
  await fs.writeFile(path.join(folder, 'nuclei.geojson'), await syntheticDetectionsText(LAYOUT));
  const outside = {
    ...nucleusFeature(LAYOUT, 1),
    geometry: {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [9000, 0],
          [0, 9],
          [0, 0],
        ],
      ],
    },
  };
  await fs.writeFile(
    path.join(folder, 'bad.geojson'),
    JSON.stringify({ type: 'FeatureCollection', features: [nucleusFeature(LAYOUT, 0), outside] }),
  );
});

afterAll(async () => {
  await browser?.close();
  await fs.rm(folder, { recursive: true, force: true });
});

async function at(page: Page, fx: number, fy: number): Promise<[number, number]> {
  const box = (await page.getByTestId('viewer-canvas').boundingBox())!;
  return [box.x + box.width * fx, box.y + box.height * fy];
}

async function importFile(page: Page, name: string): Promise<void> {
  await page.getByTestId('detection-panel').locator('input[type="file"]').setInputFiles(path.join(folder, name));
}

describe('detections: import, show, toggle, count inside a drawing', () => {
  it(
    'imports a synthetic layout, hides a class and counts what a drawn rectangle holds, in English and Japanese',
    { timeout: 300_000 },
    async () => {
      let caseId: string | undefined;
      try {
        await withAppPage(browser, baseURL, 'detections', async (app) => {
          const { page } = app;
          await signIn(page, 'member', '/organizations');
          await waitForShell(page);
          await switchLanguage(page, 'en');
          const created = await createCase(page, `E2E-DET-${Date.now()}`, DEMO_GROUPS.central.name);
          caseId = created.id;
          const image: Image = await waitUntilAvailable(
            page,
            await uploadImage(page, created.id, slidePath('CMU-1-Small-Region.svs')),
          );
          await page.goto(`/cases/${created.id}/images/${image.id}`);
          await page.locator('[data-testid="viewer-canvas"][data-state="ready"]').waitFor({ timeout: 30_000 });

          // The panel is folded while the layer has no detections; a bad file is refused, naming the feature.
          const panelToggle = page.getByTestId('detection-panel').getByRole('button', { name: 'Detections' });
          expect(await panelToggle.getAttribute('aria-expanded')).toBe('false');
          await panelToggle.click();
          await page.getByRole('button', { name: 'Import detections…' }).waitFor();
          // The empty panel says what file it takes.
          expect(await page.getByTestId('detection-empty').innerText()).toContain(
            'Import a GeoJSON FeatureCollection of polygons in full-resolution image pixels',
          );
          await settle(page);
          await app.screenshot('detections-empty-en');
          await importFile(page, 'bad.geojson');
          // The second feature of the file, at index 1 of its features.
          await expect
            .poll(() => page.getByTestId('detection-import-error').innerText(), { timeout: 30_000 })
            .toContain('Feature 2 (index 1) is not valid: its coordinates lie outside the image.');

          const tiles: string[] = [];
          page.on('request', (request) => {
            if (request.url().includes('/detections/tiles/')) tiles.push(request.url());
          });
          // The import runs as a job: a progress bar while the file goes up and is parsed, then the result.
          await importFile(page, 'nuclei.geojson');
          await page.getByTestId('detection-import-progress').waitFor();
          await app.screenshot('detections-importing-en');
          await expect
            .poll(() => page.getByTestId('detection-total').innerText(), { timeout: 60_000 })
            .toBe('2,000 objects');
          for (const [index] of SYNTHETIC_CLASSES.entries()) {
            expect(await page.getByTestId(`detection-class-count-${index}`).innerText()).toBe('500');
          }
          await expect.poll(() => tiles.length).toBeGreaterThan(0);
          // The opacity sliders name themselves and say their value as shown.
          const fill = page.getByRole('slider', { name: 'Fill opacity' });
          expect(await fill.getAttribute('aria-valuetext')).toBe('35%');
          expect(await page.getByRole('slider', { name: 'Outline opacity' }).getAttribute('aria-valuetext')).toBe(
            '90%',
          );
          await settle(page);
          await app.screenshot('detections-imported-en');

          // Hiding Tumor asks for tiles without it.
          await page.getByRole('switch', { name: 'Show Tumor' }).click({ force: true });
          await expect.poll(() => tiles.some((url) => url.includes('hide=0&'))).toBe(true);

          // A rectangle, saved, then its card tells the detections inside it.
          await page.getByTestId('drawing-tool-rectangle').click();
          const [from, to] = [await at(page, 0.3, 0.3), await at(page, 0.5, 0.55)];
          await page.mouse.move(...from);
          await page.mouse.down();
          await page.mouse.move(...to, { steps: 8 });
          await page.mouse.up();
          await page.getByTestId('drawing-save').click();
          const layerId = image.imageLayerResources[0]!.id;
          const drawings = async () =>
            ((await apiCall(page, 'GET', `/images/${image.id}/layers/${layerId}/drawings`)).json as DrawingList).data;
          await expect.poll(async () => (await drawings()).length).toBe(1);
          const geometry = expandGeometry((await drawings())[0]!.geometry);
          if (geometry.type !== 'Polygon') throw new Error('the rectangle is a polygon');
          const xs = geometry.coordinates[0]!.map(([x]) => x);
          const ys = geometry.coordinates[0]!.map(([, y]) => y);
          const rect = { x: Math.min(...xs), y: Math.min(...ys), width: 0, height: 0 };
          rect.width = Math.max(...xs) - rect.x;
          rect.height = Math.max(...ys) - rect.y;
          const expected = nucleiInside(LAYOUT, rect);
          const total = [...expected.values()].reduce((a, b) => a + b);
          expect(total).toBeGreaterThan(50);

          await page.getByTestId('drawing-tool-select').click();
          await page.mouse.click(...(await at(page, 0.4, 0.42)));
          const count = page.getByTestId('drawing-detection-total');
          await expect.poll(() => count.getAttribute('data-total'), { timeout: 20_000 }).toBe(String(total));
          for (const [index, kind] of SYNTHETIC_CLASSES.entries()) {
            const shown = page.getByTestId(`drawing-detection-class-${index}`);
            expect(await shown.getAttribute('data-count')).toBe(String(expected.get(kind.name)));
          }
          expect(await count.innerText()).toBe(`Detections inside: ${total.toLocaleString('en')}`);
          // The card sits beside the rectangle, clear of the detections panel.
          const card = (await page.getByTestId('drawing-details').boundingBox())!;
          const panel = (await page.getByTestId('detection-panel').boundingBox())!;
          const apart =
            card.x + card.width <= panel.x ||
            panel.x + panel.width <= card.x ||
            card.y + card.height <= panel.y ||
            panel.y + panel.height <= card.y;
          expect({ card, panel, apart }).toMatchObject({ apart: true });
          await settle(page);
          await app.screenshot('detections-count-en');

          // The same in Japanese.
          await switchLanguage(page, 'ja');
          await expect.poll(() => count.innerText()).toBe(`内部の検出オブジェクト: ${total.toLocaleString('ja')} 個`);
          expect(await page.getByTestId('detection-panel').innerText()).toContain('検出オブジェクト');
          await page.getByRole('button', { name: '検出結果を取り込む…' }).waitFor();
          expect(await page.getByRole('slider', { name: '塗りの不透明度' }).getAttribute('aria-valuetext')).toBe('35%');
          await settle(page);
          await app.screenshot('detections-count-ja');
          // The failure the import job stored, in Japanese; the layer keeps only the good import.
          await importFile(page, 'bad.geojson');
          await expect
            .poll(() => page.getByTestId('detection-import-error').innerText(), { timeout: 30_000 })
            .toContain('2 番目のフィーチャー（インデックス 1）が正しくありません: 座標が画像の外にあります。');
          expect(await page.getByTestId('detection-total').innerText()).toBe('2,000 個');
        });
      } finally {
        if (caseId) await deleteCasesAsSuper(browser, baseURL, [{ id: caseId }]);
      }
    },
  );
});
