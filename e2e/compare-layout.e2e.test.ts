import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, ConsoleMessage, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_GROUPS } from '../apps/server/src/db/seed/demo-groups.ts';
import { nucleusLayout, syntheticDetectionsText } from '../apps/server/test/synthetic-detections.ts';
import { slidePath } from '../apps/server/test/testdata.ts';
import { apart, boxOf, within, type Box } from './support/boxes.ts';
import { launchBrowser, withAppPage, type AppPage } from './support/browser.ts';
import { deleteCasesAsSuper } from './support/case-cleanup.ts';
import { cutTexts, sidewaysOverflow } from './support/layout.ts';
import { settle, switchLanguage, waitForShell, type Language } from './support/shell.ts';
import { signIn } from './support/sign-in.ts';
import { createCase, uploadImage, waitUntilAvailable } from './support/slides.ts';

const baseURL = inject('baseURL');
const SHOTS = '/tmp/shots-compare';
let browser: Browser;
let folder: string;

const CMU = 'CMU-1-Small-Region.svs';
/** No resolution (its TIFF says 0 pixels per cm), 439 × 167 pixels. */
const OME = 'multi-channel-z-series.ome.tif';
/** One row of the drawing toolbar: 28-pixel buttons in a 4-pixel padding, with a little room. */
const ONE_ROW = 40;

beforeAll(async () => {
  browser = await launchBrowser();
  folder = await fs.mkdtemp(path.join(os.tmpdir(), 'compare-layout-'));
  await fs.mkdir(SHOTS, { recursive: true });
  await fs.writeFile(
    path.join(folder, 'nuclei.geojson'),
    await syntheticDetectionsText(nucleusLayout({ x: 100, y: 100, width: 2000, height: 2700 }, 300)),
  );
});

afterAll(async () => {
  await browser?.close();
  await fs.rm(folder, { recursive: true, force: true });
});

const pane = (page: Page, index: number) => page.getByTestId(`compare-pane-${index}`);

async function openComparison(page: Page, ids: readonly string[]): Promise<void> {
  await page.goto(`/compare?images=${ids.join(',')}`);
  for (let index = 0; index < ids.length; index += 1) {
    await pane(page, index).locator('[data-testid="viewer-canvas"][data-state="ready"]').waitFor({ timeout: 60_000 });
  }
}

/** Unfolds every pane's detection panel: the tallest each can be. */
async function unfoldPanels(page: Page, count: number): Promise<void> {
  for (let index = 0; index < count; index += 1) {
    const toggle = pane(page, index).getByTestId('detection-panel').locator('button[aria-expanded]');
    if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
  }
}

const shown = async (locator: Locator) => (await locator.count()) > 0 && (await locator.first().isVisible());

/**
 * What is wrong with the comparison's layout: the top bar, the panes, each pane's header and slide, and on the slide
 * the viewer's tools, the drawing toolbar (one row), the zoom readout, the layer picker and the detection panel, none over another
 * and each inside its pane; the window neither scrolls sideways nor cuts a pane (the grid scrolls on a phone with
 * more than two).
 */
async function layoutProblems(page: Page, count: number): Promise<string[]> {
  const problems: string[] = [];
  const window = page.viewportSize()!;
  const screen: Box = { x: 0, y: 0, ...window };
  const bar = await boxOf(page.getByTestId('compare-top-bar'), 'top bar');
  problems.push(...within(bar, screen, 'top bar on screen'));
  for (const part of ['compare-title', 'compare-controls']) {
    problems.push(...within(await boxOf(page.getByTestId(part), part), bar, `${part} in the top bar`));
  }
  problems.push(...(await cutTexts(page.getByTestId('compare-title'))).map((text) => `title cut: ${text}`));
  if ((await sidewaysOverflow(page)) > 0) problems.push('the page scrolls sideways');

  const panes: Box[] = [];
  for (let index = 0; index < count; index += 1) {
    const root = pane(page, index);
    const box = await boxOf(root, `pane ${index}`);
    const name = `pane ${index}`;
    problems.push(...apart(box, bar, `${name} and the top bar`));
    for (const [other, at] of panes.map((seen, at) => [seen, at] as const)) {
      problems.push(...apart(box, other, `${name} and pane ${at}`));
    }
    panes.push(box);
    if (count <= 2) problems.push(...within(box, screen, `${name} on screen`));

    const header = await boxOf(root.getByTestId('compare-pane-header'), `${name} header`);
    const slide = await boxOf(root.getByTestId('viewer-canvas'), `${name} slide`);
    problems.push(...within(header, box, `${name} header in the pane`), ...within(slide, box, `${name} slide`));
    problems.push(...apart(header, slide, `${name} header and slide`));
    problems.push(
      ...(await cutTexts(root.getByTestId('compare-pane-name'))).map((text) => `${name} name cut: ${text}`),
    );

    const tools = await boxOf(root.getByTestId('viewer-toolbar'), `${name} viewer tools`);
    const drawing = await boxOf(root.getByTestId('drawing-toolbar'), `${name} drawing toolbar`);
    if (drawing.height > ONE_ROW) problems.push(`${name} drawing toolbar is ${Math.round(drawing.height)} px tall`);
    const floating: [Box, string][] = [
      [tools, 'viewer tools'],
      [drawing, 'drawing toolbar'],
      [await boxOf(root.getByTestId('zoom-indicator'), `${name} zoom`), 'zoom readout'],
    ];
    const picker = root.getByTestId('layer-picker-frame');
    if (await shown(picker)) floating.push([await boxOf(picker, `${name} layer picker`), 'layer picker']);
    const panel = root.getByTestId('detection-panel-frame');
    if (await shown(panel)) floating.push([await boxOf(panel, `${name} detection panel`), 'detection panel']);
    floating.forEach(([part, what], at) => {
      problems.push(...within(part, slide, `${name} ${what} on its slide`));
      for (const [other, otherWhat] of floating.slice(at + 1)) {
        problems.push(...apart(part, other, `${name} ${what} and ${otherWhat}`));
      }
    });
  }
  return problems;
}

/** Checks the layout and keeps a screenshot of it, in the journey's output and in /tmp/shots-compare. */
async function checkLayout(app: AppPage, count: number, name: string): Promise<void> {
  await settle(app.page, 500);
  const file = await app.screenshot(`compare-layout-${name}`);
  await fs.copyFile(file, path.join(SHOTS, `${name}.png`));
  expect(await layoutProblems(app.page, count), name).toEqual([]);
}

async function clickAt(page: Page, locator: Locator, fx: number, fy: number): Promise<void> {
  const box = await boxOf(locator, 'click target');
  await page.mouse.click(box.x + box.width * fx, box.y + box.height * fy);
}

const status = (page: Page) => page.getByTestId('compare-align-status');

describe('comparison layout and point alignment feedback', () => {
  it('fits 2, 3 and 4 panes at 1920, 1366 and 390 pixels wide, says what each alignment click did, links a slide without resolution relatively, in English and Japanese', async () => {
    let caseId: string | undefined;
    try {
      await withAppPage(browser, baseURL, 'compare-layout', async (app) => {
        const { page } = app;
        const warnings: string[] = [];
        page.on('console', (message: ConsoleMessage) => {
          if (message.type() === 'warning') warnings.push(message.text());
        });
        await signIn(page, 'member', '/organizations');
        await waitForShell(page);
        const created = await createCase(page, `E2E-COMPARE-LAYOUT-${Date.now()}`, DEMO_GROUPS.central.name);
        caseId = created.id;
        const copies = await fs.mkdtemp(path.join(os.tmpdir(), 'compare-layout-copies-'));
        const files = [slidePath(CMU)];
        for (const name of ['CMU-1-Ki67.svs', 'CMU-1-PAS.svs', 'CMU-1-HER2.svs']) {
          files.push(path.join(copies, name));
          await fs.copyFile(slidePath(CMU), path.join(copies, name));
        }
        files.push(slidePath(OME));
        const ids: string[] = [];
        for (const file of files) ids.push(await uploadImage(page, created.id, file));
        for (const id of ids) await waitUntilAvailable(page, id);
        const [cmu, ki67, pas, her2, ome] = ids as [string, string, string, string, string];

        for (const language of ['en', 'ja'] as const satisfies readonly Language[]) {
          await page.setViewportSize({ width: 1920, height: 1080 });
          await switchLanguage(page, language);

          // 1920 × 1080, four panes; the first slide's detection panel holds a class list and still stays in its pane.
          await openComparison(page, [cmu, ki67, pas, her2]);
          if (language === 'en') {
            const panel = pane(page, 0).getByTestId('detection-panel');
            await panel.locator('button[aria-expanded]').click();
            await panel.locator('input[type="file"]').setInputFiles(path.join(folder, 'nuclei.geojson'));
            await expect.poll(() => panel.getByTestId('detection-total').count(), { timeout: 60_000 }).toBe(1);
          }
          await unfoldPanels(page, 4);
          await checkLayout(app, 4, `1920-4-${language}`);

          // 1366 × 768: four panes two by two, then three in a row.
          await page.setViewportSize({ width: 1366, height: 768 });
          await checkLayout(app, 4, `1366-4-${language}`);
          await openComparison(page, [cmu, ki67, pas]);
          await checkLayout(app, 3, `1366-3-folded-${language}`);
          await unfoldPanels(page, 3);
          await checkLayout(app, 3, `1366-3-${language}`);

          // Aligning: a click on a pane's tools, or on a slide not being aligned, places nothing and says so.
          await page.getByTestId('compare-align').click();
          await page.getByTestId('compare-align-panel').waitFor();
          await pane(page, 0).getByTestId('tool-home').click();
          await expect.poll(() => status(page).getAttribute('data-kind')).toBe('missed');
          await clickAt(page, pane(page, 2).getByTestId('viewer-canvas'), 0.5, 0.6);
          await expect.poll(() => status(page).getAttribute('data-kind')).toBe('notAligned');
          expect(await page.getByTestId('compare-marker').count()).toBe(0);
          await settle(page, 300);
          await fs.copyFile(await app.screenshot(`compare-align-status-${language}`), `${SHOTS}/align-${language}.png`);
          await page.getByTestId('compare-align-cancel').click();

          // Two panes side by side: the slide fits by its height, so beside it is glass, which takes no point.
          await openComparison(page, [cmu, ki67]);
          await checkLayout(app, 2, `1366-2-${language}`);
          await page.getByTestId('compare-align').click();
          await clickAt(page, pane(page, 0).getByTestId('viewer-canvas'), 0.93, 0.5);
          await expect.poll(() => status(page).getAttribute('data-kind')).toBe('outside');
          expect(await page.getByTestId('compare-marker').count()).toBe(0);
          await clickAt(page, pane(page, 0).getByTestId('viewer-canvas'), 0.5, 0.5);
          await expect.poll(() => status(page).getAttribute('data-kind')).toBe('placed');
          expect(await page.getByTestId('compare-marker').count()).toBe(1);
          await page.getByTestId('compare-align-cancel').click();

          // A phone: the two panes stack, each with its header, one-row tools and panel in it.
          await page.setViewportSize({ width: 390, height: 844 });
          await openComparison(page, [cmu, ki67]);
          expect(await page.getByTestId('compare-grid').getAttribute('data-narrow')).toBe('true');
          await checkLayout(app, 2, `390-2-folded-${language}`);
          await unfoldPanels(page, 2);
          await checkLayout(app, 2, `390-2-${language}`);
          const [top, bottom] = [await boxOf(pane(page, 0), 'pane 0'), await boxOf(pane(page, 1), 'pane 1')];
          expect(bottom.y).toBeGreaterThanOrEqual(top.y + top.height);

          // A slide without resolution beside one with it: linked relatively, middle on middle, and the page says so.
          await page.setViewportSize({ width: 1366, height: 768 });
          await openComparison(page, [cmu, ome]);
          expect(await page.getByTestId('compare-grid').getAttribute('data-mode')).toBe('relative');
          expect(await page.getByTestId('compare-pixels-notice').innerText()).toContain(CMU);
          expect(await page.getByTestId('compare-mode').locator('input[value="absolute"]').isDisabled()).toBe(true);
          await checkLayout(app, 2, `1366-unscaled-${language}`);
          await page.keyboard.press('ArrowRight');
          await expect.poll(() => pane(page, 1).getAttribute('data-centre'), { timeout: 15_000 }).toBeTruthy();
          const [x, y] = (await pane(page, 1).getAttribute('data-centre'))!.split(',').map(Number);
          const zoom = Number(await pane(page, 1).getAttribute('data-zoom'));
          const slide = await boxOf(pane(page, 1).getByTestId('viewer-canvas'), 'pane 1 slide');
          // The follower shows its own image (439 × 167), whole or nearly, not glass far off at ×18.
          expect(x).toBeGreaterThan(0);
          expect(x).toBeLessThan(439);
          expect(y).toBeGreaterThan(0);
          expect(y).toBeLessThan(167);
          expect(439 * zoom).toBeGreaterThan(slide.width / 4);
          expect(439 * zoom).toBeLessThan(slide.width * 1.5);
          await settle(page, 500);
          await fs.copyFile(await app.screenshot(`compare-unscaled-${language}`), `${SHOTS}/unscaled-${language}.png`);
        }

        // No pair without a saved alignment is an error, and the panes share one leave-the-page guard.
        expect(app.consoleErrors).toEqual([]);
        expect(warnings.filter((text) => text.includes('blocker'))).toEqual([]);
      });
    } finally {
      if (caseId !== undefined) await deleteCasesAsSuper(browser, baseURL, [{ id: caseId }]);
    }
  }, 600_000);
});
