import fs from 'node:fs/promises';
import path from 'node:path';
import type { Running } from '../tiles/servers.ts';
import { CpuMeter, descendants } from '../support/upload-probes.ts';
import type { BrowserPath } from './browser-path.ts';
import type { BrowserBreakdown } from './breakdown.ts';
import { curlNginxPut, curlPost, curlTus } from './curl.ts';
import type { Ours } from './ours.ts';
import { BROWSER, NGINX, type Measure } from './judge.ts';
import { loadWhenQuiet } from '../support/quiet.ts';
import type { TestFile } from './test-file.ts';

const since = (start: number) => (performance.now() - start) / 1000;

/** One transfer of ours (peak RSS and CPU of the api process beside), checked against the size it recorded. */
async function measureOurs(
  ours: Ours,
  system: string,
  run: number,
  file: TestFile,
  send: (name: string) => Promise<string>,
): Promise<Measure> {
  const before = await loadWhenQuiet();
  const probe = await ours.probe();
  const start = performance.now();
  const id = await send(`${system.replace(/\W+/g, '-')}-${run}${file.extension}`).catch((error: unknown) => {
    throw new Error(`${system} failed; the server said:\n${ours.server.output()}`, { cause: error });
  });
  const seconds = since(start);
  const { peakRssMb, cpu } = await probe.stop();
  await ours.checkAndDelete(id, file.size);
  return { run, system, load: before, seconds, bytes: file.size, peakRssMb, cpu };
}

export const postTo = (ours: Ours, system: string, run: number, file: TestFile) =>
  measureOurs(ours, system, run, file, (name) => curlPost(ours.target, file.file, name));

export const tusTo = (ours: Ours, system: string, run: number, file: TestFile) =>
  measureOurs(ours, system, run, file, (name) => curlTus(ours.target, file.file, file.size, name));

/** nginx's WebDAV PUT and fsync; the file is deleted after the measure. */
export async function putToNginx(nginx: Running, davRoot: string, run: number, file: TestFile): Promise<Measure> {
  const before = await loadWhenQuiet();
  const name = `nginx-${run}-${Date.now()}${file.extension}`;
  const meter = new CpuMeter(() => descendants(/^nginx$/));
  await meter.start();
  const start = performance.now();
  const stored = await curlNginxPut(nginx.base, davRoot, file.file, name);
  const seconds = since(start);
  const { processes, machineBusy } = await meter.stop();
  await fs.rm(path.join(davRoot, name));
  if (stored !== file.size) throw new Error(`nginx stored ${stored} of ${file.size} bytes`);
  return { run, system: NGINX, load: before, seconds, bytes: file.size, cpu: { receiver: processes, machineBusy } };
}

/** The file from Chromium through the web app's upload code to our api, with where the time went. */
export async function fromBrowser(
  browser: BrowserPath,
  ours: Ours,
  run: number,
  file: TestFile,
): Promise<{ measure: Measure; figures: BrowserBreakdown }> {
  const before = await loadWhenQuiet();
  const probe = await ours.probe();
  const chromium = new CpuMeter(() => descendants(/chrom/i));
  await chromium.start();
  const figures = await browser.upload(
    { token: ours.token, caseId: ours.target.caseId },
    { path: file.file, size: file.size, name: `browser-${run}-${Date.now()}${file.extension}` },
  );
  const { peakRssMb, cpu } = await probe.stop();
  const { processes } = await chromium.stop();
  await ours.checkAndDelete(figures.imageId, file.size);
  const measure: Measure = {
    run,
    system: BROWSER,
    load: before,
    seconds: figures.seconds,
    bytes: file.size,
    peakRssMb,
    cpu: { ...cpu, chromium: processes },
  };
  return { measure, figures };
}
