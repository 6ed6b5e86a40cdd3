import os from 'node:os';
import { formatTable } from '../support/table.ts';
import type { BrowserBreakdown } from './browser-path.ts';

/** Our raw POST and tus each at least this share of nginx's MB/s, in every run (issue 43). */
export const GOAL_NGINX_SHARE = 0.8;
/** Above this 1-minute load average before a measure, its pair is not judged: other work decided the figures. */
export const MAX_LOAD_TO_JUDGE = 2;
/** The api process's peak RSS while it receives a slide (issue 30). */
const GOAL_RSS_MB = 300;
const JUDGED = ['ours POST images', 'ours tus, one PATCH'];
export const NGINX = 'nginx WebDAV PUT';
export const BROWSER = 'browser: tus-js-client';

export interface Measure {
  run: number;
  system: string;
  /** 1-minute load average just before the measure. */
  load: number;
  seconds: number;
  bytes: number;
  peakRssMb?: number;
  /** CPU seconds of the receiving server's processes (ours or nginx), of Chromium's, and of all cores. */
  cpu?: { receiver: number; chromium?: number; machineBusy: number };
}

const rate = (measure: { bytes: number; seconds: number }) => measure.bytes / 1e6 / measure.seconds;

/** The nginx measure an ours measure is compared with: the one right after it in the same run. */
function nginxAfter(measures: Measure[], index: number): Measure | undefined {
  const next = measures.slice(index + 1).find((measure) => measure.system === NGINX);
  return next?.run === measures[index]!.run ? next : undefined;
}

function verdict(measure: Measure, nginx: Measure, share: number): string {
  const worst = Math.max(measure.load, nginx.load);
  if (worst > MAX_LOAD_TO_JUDGE) return `load too high to judge (${worst.toFixed(2)} > ${MAX_LOAD_TO_JUDGE})`;
  return share >= GOAL_NGINX_SHARE ? 'PASS' : 'FAIL';
}

function breakdownLine(
  run: number,
  figures: BrowserBreakdown,
  size: number,
  measures: { curlTus?: Measure; browser?: Measure },
): string {
  const { curlTus, browser } = measures;
  const cpu = browser?.cpu;
  const s = (value: number) => `${value.toFixed(2)} s`;
  const sendRate = size / 1e6 / figures.sending;
  return (
    `  run ${run}: ${s(figures.seconds)}, ${(size / 1e6 / figures.seconds).toFixed(0)} MB/s` +
    (curlTus ? ` (curl's one PATCH this run: ${rate(curlTus).toFixed(0)} MB/s)` : '') +
    ` = creation ${s(figures.creation)}` +
    ` + ${figures.patches} PATCH bodies leaving Chromium ${s(figures.sending)} (${sendRate.toFixed(0)} MB/s while sending)` +
    ` + waiting after each PATCH's last byte ${s(figures.answers)} (the last PATCH's ${s(figures.lastAnswer)}: ` +
    `fsync, the file moved into the store, the image row)` +
    ` + between requests and the app's own steps ${s(figures.between)}` +
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
  const nginxRates = measures.filter((measure) => measure.system === NGINX).map(rate);
  const nginxMean = nginxRates.reduce((sum, value) => sum + value, 0) / Math.max(1, nginxRates.length);
  const verdicts = new Map<string, string[]>();
  const rows = measures.map((measure, index) => {
    let share = '';
    let judged = '';
    if (measure.system.startsWith('ours')) {
      const nginx = nginxAfter(measures, index);
      if (nginx != null) {
        const ratio = rate(measure) / rate(nginx);
        share = `${ratio.toFixed(2)}×`;
        if (JUDGED.includes(measure.system)) {
          judged = verdict(measure, nginx, ratio);
          verdicts.set(measure.system, [...(verdicts.get(measure.system) ?? []), judged]);
        }
      }
    } else if (measure.system.startsWith('browser')) {
      const runNginx = measures.filter((other) => other.system === NGINX && other.run === measure.run).map(rate);
      if (runNginx.length > 0)
        share = `${(rate(measure) / (runNginx.reduce((a, b) => a + b) / runNginx.length)).toFixed(2)}× (run's mean)`;
    }
    return [
      String(measure.run),
      measure.system,
      measure.load.toFixed(2),
      measure.seconds.toFixed(2),
      rate(measure).toFixed(0),
      share,
      judged,
      measure.cpu
        ? `${measure.cpu.receiver.toFixed(2)} / ${measure.cpu.chromium?.toFixed(2) ?? '-'} / ${measure.cpu.machineBusy.toFixed(1)}`
        : '',
      measure.peakRssMb == null
        ? ''
        : `${measure.peakRssMb.toFixed(0)} ${measure.peakRssMb < GOAL_RSS_MB ? 'PASS' : 'FAIL'}`,
    ];
  });
  const copy = { bytes: size, seconds: results.copySeconds };
  rows.unshift([
    '',
    'cp + sync (same disk)',
    '',
    copy.seconds.toFixed(2),
    rate(copy).toFixed(0),
    nginxRates.length ? `${(rate(copy) / nginxMean).toFixed(2)}× (mean)` : '',
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
    `\nGoals: ours ≥ ${GOAL_NGINX_SHARE}× nginx in each of 3 runs, judged where the load was ≤ ${MAX_LOAD_TO_JUDGE}`,
  );
  for (const system of JUDGED) {
    const list = verdicts.get(system) ?? [];
    const overall = list.includes('FAIL')
      ? 'FAIL'
      : list.length === 0 || list.some((entry) => entry !== 'PASS')
        ? 'load too high to judge'
        : list.length < 3
          ? `PASS in ${list.length} run${list.length === 1 ? '' : 's'} (the goal asks for 3)`
          : 'PASS';
    console.log(`  ${system}: ${overall} (${list.join(', ') || 'no pair measured'})`);
  }
  if (results.breakdowns.length > 0) {
    console.log("\nBrowser's time (page timings: Resource Timing of each request, the transport's upload progress)");
    for (const { run, figures } of results.breakdowns) {
      const inRun = (system: string) => measures.find((measure) => measure.run === run && measure.system === system);
      console.log(breakdownLine(run, figures, size, { curlTus: inRun(JUDGED[1]!), browser: inRun(BROWSER) }));
    }
  }
  console.log(
    `\nEach transfer sends the same file with curl (-T, streamed from the page cache, "Expect:" empty); the time ` +
      'runs from the first request to the last answer. Ours: the built server (dist/main.js --role api), ' +
      'which fsyncs the slide and records the image before it answers; tus = the creation and the whole file as ' +
      'one PATCH. nginx (nginx-light, ' +
      `${os.availableParallelism()} workers): WebDAV PUT, the body written to its client_body temp file on the ` +
      'same disk and renamed into place, then `sync FILE` (fsync) timed with it. Load = 1-minute load average ' +
      `(${os.availableParallelism()} cores). CPU: seconds of the receiving server's processes (the api process, or nginx's master and workers), of Chromium's processes, and all cores' busy seconds (every process on the machine).`,
  );
}
