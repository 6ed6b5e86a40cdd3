import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { DetectionImportSchema, type DetectionImport } from '@pathology/contract';
import { nucleusLayout, syntheticDetections } from '../../apps/server/test/synthetic-detections.ts';
import { withRetries, type Client } from './client.ts';
import type { Slide } from './world.ts';

const POLL_MS = 2_000;

/** One detection import and what became of it. */
export interface ImportRecord {
  objects: number;
  /** 202 came for the file. */
  acknowledged: boolean;
  /** Stored with every object; `retries` counts the imports asked for again after a retryable failure. */
  completed: boolean;
  retries: number;
  /** Wall-clock time the import's file was sent, ms since the epoch (to place slow answers beside it). */
  startedAt: number;
  seconds: number | null;
  error: string | null;
}

/**
 * The file of `objects` synthetic nuclei over the whole slide, written before the run: made while the clients run, it
 * would take their time (and the machine's) from what is measured.
 */
export async function writeImportFile(
  slide: Slide,
  objects: number,
): Promise<{ file: string; remove(): Promise<void> }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'pathology-soak-import-'));
  const file = path.join(dir, `soak-${objects}.geojson`);
  const layout = nucleusLayout({ x: 0, y: 0, width: slide.layer.width, height: slide.layer.height }, objects);
  await pipeline(syntheticDetections(layout), createWriteStream(file));
  return { file, remove: () => fs.rm(dir, { recursive: true, force: true }) };
}

/**
 * Imports the file's `objects` nuclei, repeating the upload while the server is away and asking
 * for the import again when it failed for a reason other than its file (as the web app's Retry does).
 */
export async function importDetections(client: Client, slide: Slide, file: string, objects: number, until: number) {
  const record: ImportRecord = {
    objects,
    acknowledged: false,
    completed: false,
    retries: 0,
    startedAt: Date.now(),
    seconds: null,
    error: null,
  };
  const started = performance.now();
  const base = `/api/v1/images/${slide.imageId}/layers/${slide.layer.id}/detections`;
  const posted = await withRetries(() =>
    client.call('API write', 'POST', `${base}?name=soak-${objects}.geojson`, {
      body: Readable.toWeb(createReadStream(file)) as ReadableStream,
      type: 'application/geo+json',
    }),
  );
  if (posted.status !== 202) {
    record.error = `${posted.status} ${posted.text.slice(0, 200)}`;
    return record;
  }
  record.acknowledged = true;
  const { id } = DetectionImportSchema.parse(posted.json());
  while (Date.now() < until) {
    await sleep(POLL_MS);
    const answer = await client.call('API read', 'GET', `${base}/imports/${id}`);
    if (answer.status !== 200) continue;
    const state: DetectionImport = DetectionImportSchema.parse(answer.json());
    if (state.status === 'completed') {
      record.completed = state.features === objects;
      record.error = record.completed ? null : `${state.features} objects stored of ${objects}`;
      record.seconds = (performance.now() - started) / 1000;
      return record;
    }
    if (state.status === 'failed') {
      if (!state.retryable) {
        record.error = state.error?.message ?? 'failed';
        return record;
      }
      record.retries += 1;
      await withRetries(() => client.call('API write', 'POST', `${base}/imports/${id}/retry`));
    }
  }
  record.error = 'not finished in time';
  return record;
}

/** Objects the target slide holds before the run starts, as from an earlier analysis. */
const EARLIER_DETECTIONS = 5_000;
const EARLIER_IMPORT_MS = 300_000;

/**
 * Gives the target slide the detections of an earlier analysis and reads them at a glance once, as a viewer opening
 * it does: the run starts on a server that has shown detections before (its painters up), not on a layer that has
 * none until the first import, whose tiles were blank and whose first drawing fell inside the judged minutes.
 */
export async function prepareEarlierDetections(client: Client, slide: Slide): Promise<void> {
  const written = await writeImportFile(slide, EARLIER_DETECTIONS);
  try {
    const until = Date.now() + EARLIER_IMPORT_MS;
    const record = await importDetections(client, slide, written.file, EARLIER_DETECTIONS, until);
    if (!record.completed) throw new Error(`the earlier detections were not imported: ${record.error}`);
  } finally {
    await written.remove();
  }
  const summary = await client.call(
    'API read',
    'GET',
    `/api/v1/images/${slide.imageId}/layers/${slide.layer.id}/detections`,
  );
  if (summary.status !== 200) throw new Error(`the earlier detections could not be read: ${summary.status}`);
}
