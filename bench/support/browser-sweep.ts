import { createRequire } from 'node:module';
import type { OrganizationList } from '@pathology/contract';
import { TUS_RETRY_DELAYS } from '../../apps/web/src/features/uploads/tus-settings.ts';
import { apiCall } from '../../e2e/support/case-api.ts';
import { accessToken } from '../../e2e/support/sign-in.ts';
import { withMemberPage } from './browser-app.ts';

/** tus-js-client's own browser build, the same version the web app bundles. */
const TUS_BUNDLE = createRequire(import.meta.url).resolve('tus-js-client/dist/tus.min.js');

/** What the page code below uses of the browser's globals. */
interface PageGlobals {
  tus: { Upload: new (file: unknown, options: Record<string, unknown>) => { start(): void } };
  document: {
    createElement(tag: 'input'): { type: string; id: string };
    body: { append(element: unknown): void };
    getElementById(id: string): { files: unknown[] };
  };
}

export interface SweepFigure {
  chunkBytes: number;
  seconds: number;
}

/**
 * Uploads `slide` from headless Chromium once per chunk size with tus-js-client (the web app's retry settings, a
 * real File read from disk) to the whole app, one after the other: how the browser's speed depends on the chunk
 * size alone, to choose TUS_CHUNK_SIZE by. The app's own dialog cannot be given another chunk size, so the page
 * runs tus-js-client's browser build itself, as the dialog does.
 */
export async function sweepChunkSizes(slide: string, chunkSizes: number[]): Promise<SweepFigure[]> {
  // The page gets tus-js-client as an inline script, which the app's Content-Security-Policy would refuse.
  return withMemberPage({ bypassCSP: true }, async (page) => {
    const groups = (await apiCall(page, 'GET', '/organizations')).json as OrganizationList;
    const created = await apiCall(page, 'POST', '/cases', {
      caseNumber: `BENCH-SWEEP-${Date.now()}`,
      ownerOrganizationId: groups.data[0]!.id,
    });
    const caseId = (created.json as { id: string }).id;
    await page.addScriptTag({ path: TUS_BUNDLE });
    await page.evaluate(() => {
      // Typed without the DOM library, which the bench's Node code does not load.
      const { document } = globalThis as unknown as PageGlobals;
      const input = document.createElement('input');
      input.type = 'file';
      input.id = 'sweep-file';
      document.body.append(input);
    });
    await page.locator('#sweep-file').setInputFiles(slide);
    const figures: SweepFigure[] = [];
    // The first upload of a page ran 2–3× slower than the same one later (JIT, caches), whichever the chunk size:
    // one untimed upload first, so the order of the sizes does not decide the result.
    for (const [index, chunkBytes] of [chunkSizes[0]!, ...chunkSizes].entries()) {
      const token = await accessToken(page);
      const seconds = await page.evaluate(
        async (run) => {
          const { tus, document } = globalThis as unknown as PageGlobals;
          const file = document.getElementById('sweep-file').files[0];
          const start = performance.now();
          await new Promise((resolve, reject) => {
            new tus.Upload(file, {
              endpoint: '/api/v1/uploads/images',
              chunkSize: run.chunkBytes,
              retryDelays: run.retryDelays,
              metadata: { caseId: run.caseId, filename: run.filename },
              headers: { Authorization: `Bearer ${run.token}` },
              onSuccess: resolve,
              onError: reject,
            }).start();
          });
          return (performance.now() - start) / 1000;
        },
        { chunkBytes, token, caseId, filename: `sweep-${index}.tif`, retryDelays: [...TUS_RETRY_DELAYS] },
      );
      if (index === 0) continue;
      figures.push({ chunkBytes, seconds });
      process.stdout.write(`browser, ${chunkBytes / 1024 ** 2} MiB chunks: ${seconds.toFixed(1)} s\n`);
    }
    return figures;
  });
}
