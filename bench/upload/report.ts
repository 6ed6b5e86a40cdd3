import os from 'node:os';
import { formatTable } from '../support/table.ts';
import type { BrowserBreakdown } from './breakdown.ts';
import {
  BROWSER,
  GOAL_NGINX_SHARE,
  GOAL_RUNS,
  JUDGED,
  judge,
  MAX_LOAD_TO_JUDGE,
  NGINX,
  NGINX_DAV,
  rate,
  type Measure,
} from './judge.ts';

/** The api process's peak RSS while it receives a slide (issue 30). */
const GOAL_RSS_MB = 300;

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

function breakdownLine(run: number, figures: BrowserBreakdown, size: number, measures: Measure[]): string {
  const inRun = (system: string) => measures.find((measure) => measure.run === run && measure.system === system);
  const curlTus = inRun(JUDGED[1]);
  const cpu = inRun(BROWSER)?.cpu;
  const s = (value: number) => `${value.toFixed(2)} s`;
  return (
    `  run ${run}: ${s(figures.seconds)}, ${(size / 1e6 / figures.seconds).toFixed(0)} MB/s` +
    (curlTus ? ` (curl's one PATCH this run: ${rate(curlTus).toFixed(0)} MB/s)` : '') +
    ` = creation ${s(figures.creation)}` +
    ` + ${figures.patches} PATCH bodies leaving Chromium ${s(figures.sending)} ` +
    `(${(size / 1e6 / figures.sending).toFixed(0)} MB/s while sending)` +
    ` + waiting after each PATCH's last byte ${s(figures.answers)} (the last PATCH's ${s(figures.lastAnswer)}: ` +
    'fsync, the file moved into the store, the image row)' +
    ` + before, between and after the requests (the app's own steps) ${s(figures.between)}` +
    (cpu
      ? `; CPU meanwhile: Chromium ${s(cpu.chromium ?? 0)}, the api ${s(cpu.receiver)}, all cores ` +
        `${s(cpu.machineBusy)} of ${s(figures.seconds * os.availableParallelism())}`
      : '')
  );
}

export function printResults(results: {
  measures: Measure[];
  breakdowns: { run: number; figures: BrowserBreakdown }[];
  copySeconds: number;
  size: number;
}): void {
  const { measures, size } = results;
  const { shares, verdicts, overall } = judge(measures);
  const nginxRate = (run?: number) =>
    mean(measures.filter((m) => m.system === NGINX && (run == null || m.run === run)).map(rate));
  const rows = measures.map((measure, index) => {
    const share = shares[index];
    const browserShare = measure.system === BROWSER ? rate(measure) / nginxRate(measure.run) : undefined;
    return [
      String(measure.run),
      measure.system,
      measure.load.toFixed(2),
      measure.seconds.toFixed(2),
      rate(measure).toFixed(0),
      share != null ? `${share.toFixed(2)}×` : browserShare != null ? `${browserShare.toFixed(2)}× (run's mean)` : '',
      verdicts[index] ?? '',
      measure.cpu
        ? `${measure.cpu.receiver.toFixed(2)} / ${measure.cpu.chromium?.toFixed(2) ?? '-'} / ` +
          measure.cpu.machineBusy.toFixed(1)
        : '',
      measure.peakRssMb == null
        ? ''
        : `${measure.peakRssMb.toFixed(0)} ${measure.peakRssMb < GOAL_RSS_MB ? 'PASS' : 'FAIL'}`,
    ];
  });
  const copy = { bytes: size, seconds: results.copySeconds };
  const copyShare = measures.some((m) => m.system === NGINX) ? `${(rate(copy) / nginxRate()).toFixed(2)}× (mean)` : '';
  rows.unshift([
    '',
    'cp + sync (same disk)',
    '',
    copy.seconds.toFixed(2),
    rate(copy).toFixed(0),
    copyShare,
    '',
    '',
    '',
  ]);
  console.log(
    '\n' +
      formatTable(
        [
          { title: 'run', align: 'right' },
          { title: 'system' },
          { title: 'load 1 min before', align: 'right' },
          { title: 's', align: 'right' },
          { title: 'MB/s', align: 'right' },
          { title: '× nginx after it' },
          { title: `goal ≥ ${GOAL_NGINX_SHARE}×` },
          { title: 'CPU s: server / Chromium / machine', align: 'right' },
          { title: `server peak RSS MiB (< ${GOAL_RSS_MB})`, align: 'right' },
        ],
        rows,
      ),
  );
  console.log(
    `\nGoals: ours ≥ ${GOAL_NGINX_SHARE}× nginx in each of ${GOAL_RUNS} runs, a pair judged only where the load ` +
      `before both its measures was ≤ ${MAX_LOAD_TO_JUDGE}`,
  );
  for (const system of JUDGED) console.log(`  ${system}: ${overall[system]}`);
  const systems = [...new Set(measures.filter((m) => m.cpu != null).map((m) => m.system))];
  const perMb = systems.map((system) => {
    const of = measures.filter((m) => m.system === system && m.cpu != null);
    return `${system} ${mean(of.map((m) => (m.cpu!.receiver * 1000) / (m.bytes / 1e6))).toFixed(2)}`;
  });
  console.log(
    `\nCPU ms per MB received, the receiving server's processes, mean over runs (what caps a server on busy ` +
      `cores): ${perMb.join('; ')}`,
  );
  if (results.breakdowns.length > 0) {
    console.log("\nBrowser's time (page timings: Resource Timing of each request, the transport's upload progress)");
    for (const { run, figures } of results.breakdowns) console.log(breakdownLine(run, figures, size, measures));
  }
  console.log(
    `\nEach transfer sends the same file with curl (-T, streamed from the page cache, "Expect:" empty); the time ` +
      'runs from the first request to the last answer. Ours: the built server (dist/main.js --role api), ' +
      'which fsyncs the slide and records the image before it answers; tus = the creation and the whole file as ' +
      `one PATCH. nginx (nginx-light, ${os.availableParallelism()} workers): WebDAV PUT, the body written to its ` +
      `client_body temp file on the same disk (${NGINX_DAV.slice(0, 2).join(' ')}) and renamed into ` +
      'place, then `sync FILE` (fsync) timed with it. ' +
      `Load = 1-minute load average (${os.availableParallelism()} cores). CPU: seconds of the receiving server's ` +
      "processes (the api process, or nginx's master and workers), of Chromium's processes, and all cores' busy " +
      'seconds (every process on the machine).',
  );
}
