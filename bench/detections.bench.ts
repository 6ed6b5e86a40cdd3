import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Page } from 'playwright-core';
import { DEMO_GROUPS } from '../apps/server/src/db/seed/demo-groups.ts';
import { DetectionImportSchema, type DetectionImport } from '@pathology/contract';
import { startAppServer } from '../e2e/support/app-server.ts';
import { answerAiTerms, launchBrowser } from '../e2e/support/browser.ts';
import { deleteCasesAsSuper } from '../e2e/support/case-cleanup.ts';
import { accessToken, signIn } from '../e2e/support/sign-in.ts';
import { createCase, uploadImage, waitUntilAvailable } from '../e2e/support/slides.ts';
import { panAndZoomFrames } from './drawings.bench.ts';
import { summarize, type Summary } from './support/stats.ts';
import { enlargedSlide } from './support/enlarged-slide.ts';
import { tissueMask, tissueNuclei } from './support/tissue-nuclei.ts';
import { formatTable } from './support/table.ts';

export const description =
  'Imports 1,000,000 synthetic nuclei (12–24 vertices, 4 classes) laid over the tissue of the real slide enlarged 8×8: import time (POST → import job finished), viewport and count queries, viewer open → detections drawn, pan/zoom frames, JS heap (--count N --replicate K)';

const GOALS = { importS: 60, queryP95Ms: 100, countMs: 500, openMs: 2000, frameP95Ms: 33, heapMb: 500 };
const FRAME_GOAL_MS = 2 * (1000 / 60) + 0.5;
const QUERY_RUNS = 30;
/** Viewport queries at full resolution, a middle view and the whole slide on screen. */
const QUERY_SCALES = [1, 1 / 8, 1 / 64];

/** Time until no detection tile has been pending for 300 ms, from `start`. */
async function tilesSettled(page: Page, pending: Set<string>, start: number): Promise<number> {
  let quietSince = performance.now();
  for (;;) {
    await page.waitForTimeout(50);
    if (pending.size > 0) quietSince = performance.now();
    if (pending.size === 0 && performance.now() - quietSince > 300) return quietSince - start;
  }
}

function option(args: string[], name: string, fallback: number): number {
  const at = args.indexOf(name);
  return at === -1 ? fallback : Number(args[at + 1]);
}

export async function run(args: string[]): Promise<void> {
  const count = option(args, '--count', 1_000_000);
  const replicate = option(args, '--replicate', 8);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-detections-'));
  console.log(`Enlarging the slide ${replicate}×${replicate}; starting the app and Chromium…`);
  const slide = await enlargedSlide(dir, replicate);
  const server = await startAppServer();
  const browser = await launchBrowser({ headlessShell: false });
  try {
    const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 800 } });
    await answerAiTerms(context, server.url);
    const page = await context.newPage();
    await signIn(page, 'member', '/organizations');
    const created = await createCase(page, `BENCH-DET-${Date.now()}`, DEMO_GROUPS.central.name);
    const image = await waitUntilAvailable(page, await uploadImage(page, created.id, slide));
    const layer = image.imageLayerResources[0]!;
    const base = `${server.url}/api/v1/images/${image.id}/layers/${layer.id}`;
    const auth = { Authorization: `Bearer ${await accessToken(page)}` };

    // Nuclei on a regular grid, kept where the slide has tissue (a thresholded thumbnail of it).
    const size = { width: layer.width, height: layer.height };
    const mask = await tissueMask(slide, dir, size);
    const file = path.join(dir, 'nuclei.geojson');
    await pipeline(tissueNuclei(size, mask, count).text, createWriteStream(file));
    const bytes = (await fs.stat(file)).size;
    console.log(
      `Importing ${count.toLocaleString('en')} nuclei over ${(mask.share * 100).toFixed(0)} % tissue (${(bytes / 1e6).toFixed(0)} MB)…`,
    );
    const importStart = performance.now();
    const posted = await fetch(`${base}/detections?name=nuclei.geojson`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/geo+json', 'Content-Length': String(bytes) },
      body: Readable.toWeb(createReadStream(file)) as ReadableStream,
      duplex: 'half',
    });
    if (posted.status !== 202) throw new Error(`import answered ${posted.status}: ${await posted.text()}`);
    const uploadS = (performance.now() - importStart) / 1000;
    const importId = DetectionImportSchema.parse(await posted.json()).id;
    let state: DetectionImport;
    for (;;) {
      const polled = await fetch(`${base}/detections/imports/${importId}`, { headers: auth });
      state = DetectionImportSchema.parse(await polled.json());
      if (state.status === 'completed' || state.status === 'failed') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (state.status !== 'completed') throw new Error(`import failed: ${JSON.stringify(state.error)}`);
    if (state.features !== count) throw new Error(`imported ${state.features} of ${count} nuclei`);
    const importS = (performance.now() - importStart) / 1000;

    const timed = async (url: string) => {
      const start = performance.now();
      const response = await fetch(url, { headers: auth });
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`${url} answered ${response.status}`);
      return performance.now() - start;
    };
    const queries = new Map<number, number[]>(QUERY_SCALES.map((scale) => [scale, []]));
    for (let i = 0; i < QUERY_RUNS; i++) {
      for (const scale of QUERY_SCALES) {
        const [w, h] = [1280 / scale, 800 / scale];
        const x = (((i * 7919) % 97) / 97) * Math.max(0, layer.width - w);
        const y = (((i * 104_729) % 89) / 89) * Math.max(0, layer.height - h);
        const url = `${base}/detections/viewport?x=${x}&y=${y}&width=${w}&height=${h}&scale=${scale}`;
        queries.get(scale)!.push(await timed(url));
      }
    }
    const ring = [
      [layer.width * 0.1, layer.height * 0.1],
      [layer.width * 0.9, layer.height * 0.1],
      [layer.width * 0.9, layer.height * 0.9],
      [layer.width * 0.1, layer.height * 0.9],
      [layer.width * 0.1, layer.height * 0.1],
    ];
    const drawn = await fetch(`${base}/drawings`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ shapeType: 'rectangle', geometry: { type: 'Polygon', coordinates: [ring] } }),
    });
    const drawingId = ((await drawn.json()) as { id: string }).id;
    const counts: number[] = [];
    for (let i = 0; i < 5; i++) counts.push(await timed(`${base}/drawings/${drawingId}/detections`));

    const pending = new Set<string>();
    page.on('request', (request) => request.url().includes('/detections/tiles/') && pending.add(request.url()));
    page.on('requestfinished', (request) => pending.delete(request.url()));
    page.on('requestfailed', (request) => pending.delete(request.url()));
    const opens: number[] = [];
    for (let i = 0; i < 3; i++) {
      const start = performance.now();
      await page.goto(`/cases/${created.id}/images/${image.id}`);
      await page.getByTestId('detection-total').waitFor({ timeout: 60_000 });
      opens.push(await tilesSettled(page, pending, start));
    }
    // ×40 (two image pixels per screen pixel on this ×20 scan): zoom in with the keyboard, then wait for the tiles.
    await page.getByTestId('viewer-canvas').click();
    const zoomStart = performance.now();
    for (let i = 0; i < 6; i++) await page.keyboard.press('+');
    const zoomed = await tilesSettled(page, pending, zoomStart);
    await page.keyboard.press('0');
    const frames = summarize((await panAndZoomFrames(page)).frames);
    const heapMb = (await page.evaluate<number>('performance.memory.usedJSHeapSize')) / 1e6;
    await deleteCasesAsSuper(browser, server.url, [{ id: created.id }]);

    const query = summarize([...queries.values()].flat());
    const queryRow = (title: string, stats: Summary) => [
      title,
      stats.median.toFixed(0),
      stats.p95.toFixed(0),
      `p95 < ${GOALS.queryP95Ms}`,
      stats.p95 < GOALS.queryP95Ms ? 'yes' : 'no',
    ];
    const count$ = summarize(counts);
    const open = summarize(opens);
    console.log(`\n${count.toLocaleString('en')} nuclei on ${layer.width} × ${layer.height} pixels\n`);
    console.log(
      formatTable(
        [
          { title: 'measure' },
          { title: 'median', align: 'right' },
          { title: 'p95 / max', align: 'right' },
          { title: 'goal' },
          { title: 'met' },
        ],
        [
          ['upload, streamed to storage (s)', uploadS.toFixed(1), '', '', ''],
          [
            'import, POST → job finished (s)',
            importS.toFixed(1),
            '',
            `< ${GOALS.importS}`,
            importS < GOALS.importS ? 'yes' : 'no',
          ],
          queryRow('viewport query, 3 scales (ms)', query),
          ...[...queries].map(([scale, times]) =>
            queryRow(`  at scale ${scale === 1 ? '1' : `1/${1 / scale}`} (ms)`, summarize(times)),
          ),
          [
            'count inside 80 % of the slide (ms)',
            count$.median.toFixed(0),
            count$.max.toFixed(0),
            `< ${GOALS.countMs}`,
            count$.median < GOALS.countMs ? 'yes' : 'no',
          ],
          [
            'viewer open → detection tiles drawn, whole slide (ms)',
            open.median.toFixed(0),
            open.max.toFixed(0),
            `< ${GOALS.openMs}`,
            open.median < GOALS.openMs ? 'yes' : 'no',
          ],
          [
            'zoom to ×40 → detection tiles drawn (ms)',
            zoomed.toFixed(0),
            '',
            `< ${GOALS.openMs}`,
            zoomed < GOALS.openMs ? 'yes' : 'no',
          ],
          [
            'pan/zoom: page frame interval (ms)',
            frames.median.toFixed(1),
            frames.p95.toFixed(1),
            `p95 ≤ ${GOALS.frameP95Ms}`,
            frames.p95 <= FRAME_GOAL_MS ? 'yes' : 'no',
          ],
          [
            'JS heap after pan/zoom (MB)',
            heapMb.toFixed(0),
            '',
            `< ${GOALS.heapMb}`,
            heapMb < GOALS.heapMb ? 'yes' : 'no',
          ],
        ],
      ),
    );
    console.log('Reference: npm run bench -- drawings (10,000 editable drawings).');
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
    await fs.rm(dir, { recursive: true, force: true });
  }
}
