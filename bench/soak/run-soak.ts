import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { importDetections, prepareEarlierDetections, writeImportFile } from './imports.ts';
import { startMonitor } from './monitor.ts';
import type { SoakOptions } from './options.ts';
import { intervalLine, type SoakResult } from './report.ts';
import { Recorder } from './stats.ts';
import type { SoakTarget } from './target.ts';
import { runUploads } from './uploads.ts';
import { runViewer } from './viewers.ts';
import { buildWorld } from './world.ts';
import { runWrites, verifyWrites } from './writes.ts';

/** Runs the load of `options` on a started server or topology: viewers, uploads, imports, saves, the kills asked for. */
export async function runSoak(
  target: SoakTarget,
  options: SoakOptions,
  print: (line: string) => void = console.log,
): Promise<SoakResult> {
  const recorder = new Recorder();
  print(
    'Preparing: a group, accounts, cases, two converted slides (the target enlarged for the imports, with 5,000 detections)…',
  );
  const preparing = performance.now();
  const world = await buildWorld(target, options.viewers, recorder, options.imports > 0 ? options.detections : 0);
  if (options.imports > 0) await prepareEarlierDetections(world.writer, world.target);
  const importFile = options.imports > 0 ? await writeImportFile(world.target, options.detections) : null;
  print(`Prepared in ${((performance.now() - preparing) / 1000).toFixed(1)} s.`);
  // The preparation's requests are no part of the figures.
  recorder.samples.length = 0;
  const startedAt = Date.now();
  const until = startedAt + options.minutes * 60_000;
  const finishBy = until + options.finishSeconds * 1000;
  let life = 0;
  let lastPrinted = startedAt;
  // This process's own delay is inside every answer time it records: printed, so a slow client is not taken for a slow server.
  const clientLag = monitorEventLoopDelay({ resolution: 10 });
  clientLag.enable();
  const monitor = startMonitor(
    target,
    () => life,
    () => {
      if (Date.now() - lastPrinted < options.printEverySeconds * 1000 - 1) return;
      print(
        `${intervalLine(recorder, monitor.samples, lastPrinted, Date.now(), startedAt)}, ` +
          `client loop p99 ${(clientLag.percentile(99) / 1e6).toFixed(0)} ms max ${(clientLag.max / 1e6).toFixed(0)}`,
      );
      clientLag.reset();
      lastPrinted = Date.now();
    },
  );
  print(
    `Running ${options.minutes} min: ${options.viewers} viewers, ${options.uploads} uploads at once, ` +
      `${options.imports} imports of ${options.detections} detections, ${options.writesPerMinute} saves per minute` +
      (options.killAt == null ? '' : `, kill -9 at minute ${options.killAt}`) +
      (options.killApiAt == null ? '' : `, kill -9 of API 1 at minute ${options.killApiAt}`) +
      (options.killWorkerAt == null ? '' : `, kill -9 of worker 1 at minute ${options.killWorkerAt}`),
  );
  const imports = Array.from({ length: options.imports }, async (_, i) => {
    // Spread over the run, the first before a kill in its middle.
    await sleep((options.minutes * 60_000 * (i + 1)) / (options.imports + 2));
    return importDetections(world.writer, world.target, importFile!.file, options.detections, finishBy);
  });
  const [writes, uploads, kills] = await Promise.all([
    runWrites(world.writer, world.slides.slice(0, 2), options.writesPerMinute, until),
    runUploads({
      client: world.writer,
      recorder,
      caseIds: world.uploadCases.slice(0, options.uploads),
      prefix: world.caseNumberPrefix,
      slides: world.slides,
      until,
      convertBy: finishBy,
    }),
    target.disrupt(options, { startedAt, recorder, print, nextLife: () => (life += 1) }),
    ...world.viewers.map((client, i) => runViewer(client, world, i + 1, until)),
  ]);
  clientLag.disable();
  print(`The load stopped; finished at ${((Date.now() - startedAt) / 1000).toFixed(0)} s.`);
  const importRecords = await Promise.all(imports);
  await importFile?.remove();
  print('Reading every drawing and note back…');
  await verifyWrites(world.writer, writes);
  const states = await monitor.stop();
  return {
    options,
    startedAt,
    endedAt: Date.now(),
    recorder,
    states,
    writes,
    uploads,
    imports: importRecords,
    kills,
    downtimesMs: kills.filter((kill) => kill.restarted).map((kill) => kill.readyAt! - kill.killedAt),
  };
}
