import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { TUS_CHUNK_SIZE } from '../../apps/web/src/features/uploads/tus-settings.ts';
import { QUEUE_CONCURRENCY } from '../../apps/web/src/features/uploads/upload-types.ts';
import { launchBrowser } from '../../e2e/support/browser.ts';
import { breakdown, type BrowserBreakdown, type PageResult } from './breakdown.ts';

const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));
/** A blank page of our server's origin, so that the uploads are same-origin requests as in the app. */
const PAGE_PATH = '/bench-upload-page';

/**
 * The web app's own upload code for the page: its upload engine (queues with QUEUE_CONCURRENCY) and transport
 * (tus-js-client with TUS_CHUNK_SIZE and the app's retries, a bearer token asked for before every request), as the
 * upload dialog runs it. Only the token provider is set by the bench instead of the OIDC sign-in.
 */
const PAGE_ENTRY = `
import { setAccessTokenProvider } from './apps/web/src/api/client.ts';
import { createUploadEngine } from './apps/web/src/features/uploads/upload-engine.ts';
import { uploadTransport } from './apps/web/src/features/uploads/upload-transport.ts';

globalThis.benchUpload = async ({ token, caseId, filename }) => {
  const file = document.getElementById('file').files[0];
  setAccessTokenProvider(() => token);
  performance.clearResourceTimings();
  const progress = [];
  const engine = createUploadEngine({
    transport: (item, onProgress, signal, onReconnecting) =>
      uploadTransport(item, (fraction) => { progress.push([performance.now(), fraction]); onProgress(fraction); }, signal, onReconnecting),
  });
  const finished = new Promise((resolve, reject) => engine.onEvent((event) => {
    if (event.type === 'upload_completed') resolve(event.item);
    if (event.type === 'upload_failed') reject(new Error(event.item.error));
  }));
  const start = performance.now();
  engine.enqueue('dialog', [{ caseNumber: 'BENCH', caseId, filename, displayName: filename, file }]);
  const item = await finished;
  const end = performance.now();
  const requests = performance.getEntriesByType('resource')
    .filter((entry) => entry.name.includes('/uploads/images'))
    .map(({ name, startTime, requestStart, responseStart, responseEnd }) => ({ name, startTime, requestStart, responseStart, responseEnd }));
  return { start, end, progress, requests, imageId: item.imageId };
};
`;

async function pageScript(): Promise<string> {
  const bundled = await build({
    stdin: { contents: PAGE_ENTRY, resolveDir: repositoryRoot, loader: 'ts', sourcefile: 'bench-upload-page.ts' },
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'chrome120',
    logLevel: 'silent',
  });
  return bundled.outputFiles[0]!.text;
}

export interface BrowserPath {
  /** Chooses `file` in the page's file input, as a user does, and uploads it through the app's code. */
  upload(
    target: { token: string; caseId: string },
    file: { path: string; size: number; name: string },
  ): Promise<BrowserBreakdown>;
  close(): Promise<void>;
}

/** Headless Chromium on a page of our server, with the app's upload code loaded. */
export async function openBrowserPath(base: string): Promise<BrowserPath> {
  const script = await pageScript();
  const browser: Browser = await launchBrowser({ headlessShell: false });
  try {
    const page: Page = await browser.newPage();
    await page.route(`${base}${PAGE_PATH}`, (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><input type="file" id="file">' }),
    );
    await page.goto(`${base}${PAGE_PATH}`);
    // While a route is set, Playwright intercepts every request of the page, uploads too, and copies their bodies.
    await page.unrouteAll();
    await page.addScriptTag({ content: script });
    return {
      async upload(target, file) {
        await page.locator('#file').setInputFiles(file.path);
        const result = await page.evaluate(
          (options) =>
            (globalThis as unknown as { benchUpload(o: typeof options): Promise<PageResult> }).benchUpload(options),
          { ...target, filename: file.name },
        );
        return breakdown(result, file.size, TUS_CHUNK_SIZE);
      },
      close: () => browser.close(),
    };
  } catch (error) {
    await browser.close();
    throw error;
  }
}

/** How the page uploads, for the report. */
export const browserSettings = () =>
  `the web app's upload engine and transport (${path.join('apps', 'web', 'src', 'features', 'uploads')}) bundled ` +
  `with esbuild: tus-js-client, TUS_CHUNK_SIZE ${TUS_CHUNK_SIZE / 1024 ** 2} MiB, the dialog queue's ` +
  `concurrency ${QUEUE_CONCURRENCY.dialog} (one file here, so its PATCHes go one after the other)`;
