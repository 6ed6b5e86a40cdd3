import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { CaseSearchResponse, Image } from '@pathology/contract';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { canRestartAppServer, restartAppServer } from './support/app-restart.ts';
import type { RestartKind } from './support/app-server.ts';
import { launchBrowser, withAppPage } from './support/browser.ts';
import { apiCall, searchCases } from './support/case-api.ts';
import { deleteCasesAsSuper } from './support/case-cleanup.ts';
import { settle, switchLanguage, waitForShell } from './support/shell.ts';
import { signIn } from './support/sign-in.ts';

const baseURL = inject('baseURL');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/** Each file: an uncompressed RGB TIFF of noise, about 4.2 MB that no two files share (no duplicate checksums). */
const WIDTH = 1400;
const HEIGHT = 1000;
/**
 * The page's upload speed (Chromium's network emulation): slow enough that files are half-sent when the server is
 * killed, fast enough for the journey to stay within a minute or so.
 */
const UPLOAD_BYTES_PER_SECOND = 2 * 1024 * 1024;
/**
 * Longer than other journeys: the server's restart alone takes 25–45 s on a busy 2-core machine (a new Node process,
 * PostgreSQL's recovery after the kill, migrations checked), and the uploads wait up to 10 s more to notice it is back.
 */
const JOURNEY_TIMEOUT_MS = 300_000;
/** What Chromium logs on its own while the server is down: the failed requests that tus-js-client retries. */
const RESTART_NOISE = /net::ERR_(CONNECTION_REFUSED|CONNECTION_RESET|EMPTY_RESPONSE)|status of 50[234]/;

async function noiseTiffs(names: readonly string[]): Promise<{ files: string[]; remove: () => Promise<void> }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'pathology-e2e-restart-'));
  const files = names.map((name) => path.join(dir, name));
  for (const file of files) {
    await sharp({
      create: {
        width: WIDTH,
        height: HEIGHT,
        channels: 3,
        background: '#808080',
        noise: { type: 'gaussian', mean: 128, sigma: 60 },
      },
    })
      .tiff({ compression: 'none' })
      .toFile(file);
  }
  return { files, remove: () => fs.rm(dir, { recursive: true, force: true }) };
}

/** The cases with exactly this number (as the signed-in user sees them). */
async function casesNumbered(page: Page, caseNumber: string): Promise<CaseSearchResponse['data']> {
  const { data } = await searchCases(page, {
    query: [{ field: 'caseNumber', operator: 'is', value: caseNumber }],
    order: { field: 'caseNumber', direction: 'asc' },
    page: 1,
    limit: 10,
  });
  return data.filter((item) => item.caseNumber === caseNumber);
}

/** Reads `filename` out of a tus Upload-Metadata header (comma-separated `key base64` pairs). */
function filenameOf(uploadMetadata: string | undefined): string | undefined {
  for (const pair of (uploadMetadata ?? '').split(',')) {
    const [key, value] = pair.trim().split(' ');
    if (key === 'filename' && value) return Buffer.from(value, 'base64').toString('utf8');
  }
  return undefined;
}

/**
 * Uploads five files from the bulk screen (one at a time, throttled) and restarts the server once the first is under
 * way: killed, it is cut and must resume; restarted gracefully, the drain lets it finish while the next files meet a
 * server that is going (503, refused) and must wait for it, their new case created once.
 */
async function bulkUploadAcrossRestart(how: RestartKind): Promise<void> {
  const n = Date.now();
  const first = `E2E-RESTART-${n}`;
  const second = `E2E-RESTART2-${n}`;
  const names = [`${first}--a.tif`, `${first}--b.tif`, `${first}--c.tif`, `${second}--a.tif`, `${second}--b.tif`];
  const tiffs = await noiseTiffs(names);
  const sizes = new Map(
    await Promise.all(names.map(async (name, index) => [name, (await fs.stat(tiffs.files[index]!)).size] as const)),
  );
  try {
    await withAppPage(browser, baseURL, `bulk-upload-restart-${how}`, async (app) => {
      const { page } = app;
      // The tus requests of each file: its creations, and the offset every PATCH started from (and when).
      const uploadOf = new Map<string, string>();
      const creations = new Map<string, number>();
      const patches: { file: string | undefined; offset: number; afterKill: boolean }[] = [];
      // From the kill on, a PATCH can only reach the new server process.
      let killed = false;
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (request.method() === 'POST' && url.pathname === '/api/v1/uploads/images') {
          const file = filenameOf(request.headers()['upload-metadata']);
          if (file) creations.set(file, (creations.get(file) ?? 0) + 1);
        }
        if (request.method() === 'PATCH' && url.pathname.startsWith('/api/v1/uploads/images/')) {
          const offset = Number(request.headers()['upload-offset']);
          patches.push({ file: uploadOf.get(url.pathname), offset, afterKill: killed });
        }
      });
      page.on('response', (response) => {
        const request = response.request();
        if (request.method() !== 'POST' || new URL(response.url()).pathname !== '/api/v1/uploads/images') return;
        // Read at once: the file's first PATCH follows the answer straight away.
        const location = response.headers().location;
        const file = filenameOf(request.headers()['upload-metadata']);
        if (location && file) uploadOf.set(new URL(location, baseURL).pathname, file);
      });

      await signIn(page, 'member', '/bulk-upload');
      await waitForShell(page);
      await switchLanguage(page, 'en');
      await page.locator('[data-testid="bulk-upload"][data-step="adding"]').waitFor();
      await page.getByTestId('bulk-file-input').setInputFiles(tiffs.files);
      await page.getByRole('button', { name: 'Preview', exact: true }).click();
      await page.locator('[data-testid="bulk-upload"][data-step="previewing"]').waitFor();
      expect(await page.getByTestId('bulk-summary').innerText()).toBe('Files to upload: 5 · New cases: 2 · Skipped: 0');

      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput: UPLOAD_BYTES_PER_SECOND,
      });
      await page.getByRole('button', { name: 'Upload 5 files' }).click();

      // Kill the server as soon as the first file is under way, well before it is whole (the progress counts bytes
      // handed to the network, ahead of what the server has).
      const rows = page.getByTestId('upload-item');
      const percentOf = async (filename: string) =>
        Number(
          await page.getByRole('progressbar', { name: `Upload progress of ${filename}` }).getAttribute('aria-valuenow'),
        );
      await expect
        .poll(async () => Math.max(...(await Promise.all(names.map(percentOf)))), { timeout: 30_000, interval: 50 })
        .toBeGreaterThanOrEqual(5);
      const inFlight: string[] = [];
      for (const name of names) {
        if ((await rows.filter({ hasText: name }).getAttribute('data-status')) === 'uploading') inFlight.push(name);
      }
      expect(inFlight, 'files under way when the server goes').toEqual(names.slice(0, 1));
      const killedAt = performance.now();

      killed = how === 'kill';
      const restart = restartAppServer(how);
      if (how === 'kill') {
        // While it is down, the cut files say they wait for it, and nothing fails.
        await page.getByTestId('upload-reconnecting').first().waitFor({ timeout: 30_000 });
        await settle(page);
        await app.screenshot('bulk-upload-restart-waiting-en');
      }
      await restart;
      const backAt = performance.now();

      await page.locator('[data-testid="bulk-upload"][data-step="done"]').waitFor({ timeout: 120_000 });
      const doneAt = performance.now();
      expect(await page.getByTestId('bulk-done').innerText()).toBe('Upload finished: 5 uploaded, 0 failed.');
      for (const name of names) {
        expect(await rows.filter({ hasText: name }).getAttribute('data-status'), name).toBe('uploaded');
        expect(await percentOf(name), name).toBe(100);
      }
      const overall = page.getByRole('progressbar', { name: 'Overall upload progress' });
      expect(await overall.getAttribute('aria-valuenow')).toBe('100');
      // No error left: no failed row, no waiting note, no failure toast.
      expect(await page.getByTestId('upload-error').count()).toBe(0);
      expect(await page.getByTestId('upload-reconnecting').count()).toBe(0);
      expect(await page.locator('.mantine-Notification-root').filter({ hasText: 'upload failed' }).count()).toBe(0);
      await settle(page);
      if (how === 'kill') await app.screenshot('bulk-upload-restart-done-en');

      // The files under way went on with the same upload (one creation each); cut, from the bytes the server kept.
      for (const name of inFlight) expect(creations.get(name), `creations of ${name}`).toBe(1);
      if (how === 'kill') {
        const resumedFrom = inFlight.map((name) => {
          const resumed = patches.find((patch) => patch.file === name && patch.afterKill);
          expect(resumed, `a PATCH of ${name} after the restart`).toBeDefined();
          return resumed!.offset;
        });
        expect(Math.max(...resumedFrom), 'bytes kept across the restart').toBeGreaterThan(0);
      }

      // Every file is stored once, with its size, in one case per number (a retried creation made no second).
      for (const caseNumber of [first, second]) {
        const cases = await casesNumbered(page, caseNumber);
        expect(cases.length, `cases numbered ${caseNumber}`).toBe(1);
        const found = cases[0];
        const expected = names.filter((name) => name.startsWith(`${caseNumber}--`));
        expect(found?.images.map((image) => image.filename).sort(), caseNumber).toEqual(expected);
        for (const listed of found?.images ?? []) {
          const image = (await apiCall(page, 'GET', `/images/${listed.id}`)).json as Image;
          expect(image.size, listed.filename).toBe(sizes.get(listed.filename));
        }
      }
      console.info(
        `e2e restart (${how}): the server was away ${((backAt - killedAt) / 1000).toFixed(1)} s, the batch done ` +
          `${((doneAt - backAt) / 1000).toFixed(1)} s later; in flight when killed: ${inFlight.join(', ')}; ` +
          `PATCH offsets after the restart: ${patches
            .filter((patch) => patch.afterKill)
            .map((patch) => `${patch.file}@${patch.offset}`)
            .join(', ')}`,
      );
      expect(app.consoleErrors.filter((error) => !RESTART_NOISE.test(error))).toEqual([]);
    });
  } finally {
    await tiffs.remove();
    await deleteCasesAsSuper(browser, baseURL, [{ caseNumber: first }, { caseNumber: second }]);
  }
}

describe.skipIf(!canRestartAppServer())('bulk upload across a restart of the server', () => {
  it(
    'keeps every file going when the server is killed mid-way: the cut ones resume, all are stored once',
    () => bulkUploadAcrossRestart('kill'),
    JOURNEY_TIMEOUT_MS,
  );

  it(
    'keeps every file going through a graceful restart: the next files wait for the server, all are stored once',
    () => bulkUploadAcrossRestart('graceful'),
    JOURNEY_TIMEOUT_MS,
  );
});
