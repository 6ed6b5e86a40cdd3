import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { DEMO_GROUPS } from '../apps/server/src/db/seed/demo-groups.ts';
import { slidePath } from '../apps/server/test/testdata.ts';
import { startAppServer } from '../e2e/support/app-server.ts';
import { answerAiTerms, launchBrowser } from '../e2e/support/browser.ts';
import { deleteCasesAsSuper } from '../e2e/support/case-cleanup.ts';
import { signIn } from '../e2e/support/sign-in.ts';
import { createCase, uploadImage, waitUntilAvailable } from '../e2e/support/slides.ts';
import { panAndZoomFrames } from './drawings.bench.ts';
import { summarize } from './support/stats.ts';
import { formatTable } from './support/table.ts';

export const description =
  'Pans and zooms the leader of a 4-pane comparison of the real slide in headless Chromium: page frame interval against the single viewer (--rounds N)';

/** Frame intervals come in whole refreshes: the 33 ms goal is at most two refreshes at 60 Hz, give or take jitter. */
const FRAME_GOAL_MS = 2 * (1000 / 60) + 0.5;
const PANES = 4;

/** Page frame intervals while the first slide on the page is zoomed and dragged `rounds` times. */
async function leaderFrames(page: Page, rounds: number): Promise<number[]> {
  // The first frames include the page settling; the rest are the interaction.
  return (await panAndZoomFrames(page, rounds)).frames.slice(5);
}

/** Waits until `count` slides are open (a locator, not a page function: the app's CSP forbids eval). */
async function waitForSlides(page: Page, count: number): Promise<void> {
  await page
    .locator('[data-testid="viewer-canvas"][data-state="ready"]')
    .nth(count - 1)
    .waitFor({ timeout: 120_000 });
}

export async function run(args: string[]): Promise<void> {
  const roundsArg = args.indexOf('--rounds');
  const rounds = roundsArg === -1 ? 3 : Number(args[roundsArg + 1]);
  console.log('Starting the app (embedded PostgreSQL, demo data) and Chromium…');
  const server = await startAppServer();
  const browser = await launchBrowser();
  const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-compare-'));
  try {
    const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 800 } });
    await answerAiTerms(context, server.url);
    const page = await context.newPage();
    await signIn(page, 'member', '/organizations');
    const created = await createCase(page, `BENCH-COMPARE-${Date.now()}`, DEMO_GROUPS.central.name);
    // The same scan four times under four names (a case holds one image per file name).
    const ids: string[] = [];
    for (let pane = 0; pane < PANES; pane++) {
      const file = path.join(scratch, `CMU-1-Small-Region-${pane + 1}.svs`);
      await fs.copyFile(slidePath('CMU-1-Small-Region.svs'), file);
      ids.push(await uploadImage(page, created.id, file));
    }
    for (const id of ids) await waitUntilAvailable(page, id);

    console.log('Reference: the single viewer…');
    await page.goto(`/cases/${created.id}/images/${ids[0]}`);
    await waitForSlides(page, 1);
    // A first round loads the tiles; the second is measured.
    await leaderFrames(page, 1);
    const single = summarize(await leaderFrames(page, rounds));

    console.log(`${PANES} linked panes…`);
    await page.goto(`/compare?images=${ids.join(',')}`);
    await waitForSlides(page, PANES);
    await leaderFrames(page, 1);
    const linked = summarize(await leaderFrames(page, rounds));
    await deleteCasesAsSuper(browser, server.url, [{ id: created.id }]);

    console.log(
      `\n${formatTable(
        [
          { title: 'page frame interval while panning and zooming (ms)' },
          { title: 'median', align: 'right' },
          { title: 'p95', align: 'right' },
          { title: 'goal' },
          { title: 'met' },
        ],
        [
          [
            `${PANES} linked panes (followers set in the leader's frame)`,
            linked.median.toFixed(1),
            linked.p95.toFixed(1),
            'p95 ≤ 33 (2 refreshes)',
            linked.p95 <= FRAME_GOAL_MS ? 'yes' : 'no',
          ],
          ['single viewer — reference', single.median.toFixed(1), single.p95.toFixed(1), '', ''],
        ],
      )}`,
    );
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
    await fs.rm(scratch, { recursive: true, force: true });
  }
}
