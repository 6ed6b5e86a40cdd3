import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ImageAlignment, ImagePoint } from '@pathology/contract';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { alignmentTransform, apply, invert } from '../apps/web/src/features/compare/transforms.ts';
import { DEMO_GROUPS } from '../apps/server/src/db/seed/demo-groups.ts';
import { slidePath } from '../apps/server/test/testdata.ts';
import { launchBrowser, withAppPage } from './support/browser.ts';
import { apiCall, dismissToasts } from './support/case-api.ts';
import { deleteCasesAsSuper } from './support/case-cleanup.ts';
import { createCase, uploadImage, waitUntilAvailable } from './support/slides.ts';
import { settle, switchLanguage, waitForShell, type Language } from './support/shell.ts';
import { signIn } from './support/sign-in.ts';

const baseURL = inject('baseURL');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const CMU = 'CMU-1-Small-Region.svs';
const SECOND = 'CMU-1-Small-Region-Ki67.svs';

const LABELS = {
  en: { compare: 'Compare', align: 'Align by points', save: 'Save alignment', add: 'Add slide to compare' },
  ja: { compare: '比較', align: '点で位置合わせ', save: '位置合わせを保存', add: 'スライドを比較に追加' },
} as const;

const pane = (page: Page, index: number) => page.getByTestId(`compare-pane-${index}`);

async function waitForPanes(page: Page, count: number): Promise<void> {
  for (let index = 0; index < count; index += 1) {
    await pane(page, index).locator('[data-testid="viewer-canvas"][data-state="ready"]').waitFor({ timeout: 60_000 });
  }
}

/** The view a pane showed when the leader last came to rest: centre in image pixels, screen pixels per image pixel. */
async function restedView(locator: Locator): Promise<{ centre: ImagePoint; zoom: number } | undefined> {
  const [centre, zoom] = await Promise.all([locator.getAttribute('data-centre'), locator.getAttribute('data-zoom')]);
  if (!centre || !zoom) return undefined;
  const [x, y] = centre.split(',').map(Number);
  return { centre: [x!, y!], zoom: Number(zoom) };
}

/** Clicks at a fraction of the pane's slide area (0..1 each way). */
async function clickSlide(page: Page, index: number, fx: number, fy: number): Promise<void> {
  const box = (await pane(page, index).getByTestId('viewer-canvas').boundingBox())!;
  await page.mouse.click(box.x + box.width * fx, box.y + box.height * fy);
}

/** Drags the pane's slide by (dx, dy) screen pixels from its middle. */
async function dragSlide(page: Page, index: number, dx: number, dy: number): Promise<void> {
  const box = (await pane(page, index).getByTestId('viewer-canvas').boundingBox())!;
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx / 2, y + dy / 2, { steps: 5 });
  await page.mouse.move(x + dx, y + dy, { steps: 5 });
  await page.mouse.up();
}

/**
 * The follower's centre is where the alignment takes the leader's centre, within one screen pixel; returns the
 * distance in screen pixels.
 */
async function followerMiss(page: Page, alignment: ImageAlignment): Promise<number> {
  // The alignment maps the second slide's pixels onto the first's; the follower shows its inverse of the leader.
  const toFirst = alignmentTransform(alignment.points.map(({ image, other }) => [other, image]))!;
  const leader = (await restedView(pane(page, 0)))!;
  const follower = (await restedView(pane(page, 1)))!;
  const [x, y] = apply(invert(toFirst)!, leader.centre);
  return Math.hypot(follower.centre[0] - x, follower.centre[1] - y) * follower.zoom;
}

/** Waits until the leader has moved away from `before` and the panes have come to rest. */
async function movedFrom(page: Page, before: ImagePoint | undefined): Promise<void> {
  await expect
    .poll(
      async () => {
        const view = await restedView(pane(page, 0));
        return (
          view !== undefined &&
          (before === undefined || Math.hypot(view.centre[0] - before[0], view.centre[1] - before[1]) > 1)
        );
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  await settle(page, 400);
}

describe('comparison of slides side by side', () => {
  for (const language of ['en', 'ja'] as const satisfies readonly Language[]) {
    it(`opens two slides, aligns them by 3 points, keeps them linked and reopens from the address (${language})`, async () => {
      let caseId: string | undefined;
      const text = LABELS[language];
      try {
        await withAppPage(browser, baseURL, `compare-${language}`, async (app) => {
          const { page } = app;
          await signIn(page, 'member', '/organizations');
          await waitForShell(page);
          await switchLanguage(page, language);

          const created = await createCase(page, `E2E-COMPARE-${language}-${Date.now()}`, DEMO_GROUPS.central.name);
          caseId = created.id;
          const first = await uploadImage(page, created.id, slidePath(CMU));
          // The same scan under a second name, as a case cannot hold two images of one file name.
          const copy = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'compare-')), SECOND);
          await fs.copyFile(slidePath(CMU), copy);
          const second = await uploadImage(page, created.id, copy);
          await waitUntilAvailable(page, first);
          await waitUntilAvailable(page, second);

          // From the case's images: check both, then Compare.
          await page.goto(`/cases/${created.id}/images`);
          const checks = page.getByTestId('case-image-select');
          await checks.nth(1).waitFor();
          await checks.nth(0).check();
          await checks.nth(1).check();
          await page.getByRole('link', { name: text.compare, exact: true }).click();
          await page.waitForURL(/\/compare\?images=/);
          const ids = new URL(page.url()).searchParams.get('images')!.split(',');
          expect([...ids].sort()).toEqual([first, second].sort());
          await waitForPanes(page, 2);
          const names = await page.getByTestId('compare-pane-name').allInnerTexts();
          expect(names.sort()).toEqual([CMU, SECOND].sort());
          await expect.poll(() => pane(page, 0).getAttribute('data-leading')).toBe('true');
          await settle(page, 800);
          await app.screenshot(`compare-opened-${language}`);

          // Align with 3 points: the second slide's points are shifted and one is off, as real serial sections are.
          await page.getByRole('button', { name: text.align }).click();
          const panel = page.getByTestId('compare-align-panel');
          await panel.waitFor();
          const picks: [number, number, number, number][] = [
            [0.3, 0.3, 0.35, 0.32],
            [0.7, 0.3, 0.74, 0.34],
            [0.45, 0.7, 0.52, 0.66],
          ];
          for (const [x0, y0, x1, y1] of picks) {
            await clickSlide(page, 0, x0, y0);
            await clickSlide(page, 1, x1, y1);
          }
          await expect.poll(() => panel.getByText(/µm/).count()).toBe(3);
          await expect.poll(() => page.getByTestId('compare-marker').count()).toBe(6);
          await app.screenshot(`compare-aligning-${language}`);
          const saved = page.waitForResponse(
            (response) => response.request().method() === 'PUT' && /\/alignments\//.test(response.url()),
          );
          await page.getByRole('button', { name: text.save }).click();
          expect((await saved).status()).toBe(200);
          await panel.waitFor({ state: 'hidden' });
          await dismissToasts(page);
          const { json } = await apiCall(page, 'GET', `/images/${ids[0]}/alignments/${ids[1]}`);
          const alignment = json as ImageAlignment;
          expect(alignment.points).toHaveLength(3);

          // Pan the first slide: the second one's centre is the aligned point, within one screen pixel.
          const before = (await restedView(pane(page, 0)))?.centre;
          await dragSlide(page, 0, -160, -90);
          await movedFrom(page, before);
          expect(await followerMiss(page, alignment)).toBeLessThanOrEqual(1);
          await app.screenshot(`compare-aligned-panned-${language}`);

          // Keyboard: an arrow pans the leader (the follower comes along), Tab hands the lead to the second slide.
          const keyed = (await restedView(pane(page, 0)))!.centre;
          await page.keyboard.press('ArrowRight');
          await movedFrom(page, keyed);
          expect(await followerMiss(page, alignment)).toBeLessThanOrEqual(1);

          // Reload from the address: the same view, still aligned.
          const address = page.url();
          expect(address).toContain('centre=');
          const centre = new URL(address).searchParams.get('centre')!.split(',').map(Number);
          await page.goto(address);
          await waitForPanes(page, 2);
          await expect
            .poll(async () => (await restedView(pane(page, 0))) !== undefined, { timeout: 15_000 })
            .toBe(true);
          await settle(page, 400);
          const reopened = (await restedView(pane(page, 0)))!;
          expect(
            Math.hypot(reopened.centre[0] - centre[0]!, reopened.centre[1] - centre[1]!) * reopened.zoom,
          ).toBeLessThanOrEqual(1);
          expect(await followerMiss(page, alignment)).toBeLessThanOrEqual(1);

          await page.keyboard.press('Tab');
          await expect.poll(() => pane(page, 1).getAttribute('data-leading')).toBe('true');
          await settle(page, 500);
          await app.screenshot(`compare-reloaded-${language}`);

          // From the viewer: Add slide to compare opens the pair.
          await page.goto(`/cases/${created.id}/images/${first}`);
          await page.getByRole('button', { name: text.add }).click();
          await page.getByRole('menuitem').first().click();
          await page.waitForURL(new RegExp(`/compare\\?images=${first},${second}`));
          await waitForPanes(page, 2);

          // An image out of sight: the whole comparison is a 404 page.
          await page.goto(`/compare?images=${first},00000000-0000-4000-8000-000000000000`);
          await page.getByTestId('compare-not-found').waitFor();
        });
      } finally {
        if (caseId !== undefined) await deleteCasesAsSuper(browser, baseURL, [{ id: caseId }]);
      }
    }, 300_000);
  }
});
