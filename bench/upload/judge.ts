import { QUIET_LOAD as MAX_LOAD_TO_JUDGE } from '../support/quiet.ts';

/** Above this 1-minute load average before a measure, its pair is not judged: other work decided the figures. */
export { MAX_LOAD_TO_JUDGE };
/** Our raw POST and tus each at least this share of nginx's MB/s, in every run (issue 43). */
export const GOAL_NGINX_SHARE = 0.8;
/** Runs the goal asks for. */
export const GOAL_RUNS = 3;
/** The systems held to the goal; others (S3, the browser) are shown beside nginx without a verdict. */
export const JUDGED = ['ours POST images', 'ours tus, one PATCH'] as const;
export const NGINX = 'nginx WebDAV PUT';
/** nginx's server block: WebDAV PUT, bodies of any size, read in 1 MiB (written to its temp file past that). */
export const NGINX_DAV = [
  'client_max_body_size 0;',
  'client_body_buffer_size 1m;',
  'location / { dav_methods PUT; create_full_put_path on; }',
];
export const BROWSER = 'browser: tus-js-client';
export const TOO_LOADED = 'load too high to judge';

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

export const rate = (measure: { bytes: number; seconds: number }) => measure.bytes / 1e6 / measure.seconds;

export interface Judged {
  /** Per measure: its MB/s over the nginx measure right after it in the same run (ours only). */
  shares: (number | undefined)[];
  /** Per measure: PASS, FAIL or why it was not judged (the judged systems only). */
  verdicts: (string | undefined)[];
  /** Per judged system: PASS only for GOAL_RUNS judged passing pairs, FAIL for any failing one. */
  overall: Record<string, string>;
}

/** Pairs each of our measures with the nginx measure after it in its run and judges the goal's systems. */
export function judge(measures: readonly Measure[]): Judged {
  const shares: (number | undefined)[] = [];
  const verdicts: (string | undefined)[] = [];
  const bySystem = new Map<string, string[]>();
  measures.forEach((measure, index) => {
    const nginx = measure.system.startsWith('ours')
      ? measures.slice(index + 1).find((other) => other.system === NGINX)
      : undefined;
    if (nginx == null || nginx.run !== measure.run) {
      shares.push(undefined);
      verdicts.push(undefined);
      return;
    }
    const share = rate(measure) / rate(nginx);
    shares.push(share);
    if (!(JUDGED as readonly string[]).includes(measure.system)) {
      verdicts.push(undefined);
      return;
    }
    const worst = Math.max(measure.load, nginx.load);
    const verdict =
      worst > MAX_LOAD_TO_JUDGE
        ? `${TOO_LOADED} (${worst.toFixed(2)} > ${MAX_LOAD_TO_JUDGE})`
        : share >= GOAL_NGINX_SHARE
          ? 'PASS'
          : 'FAIL';
    verdicts.push(verdict);
    const short = verdict.startsWith(TOO_LOADED) ? `not judged, load ${worst.toFixed(2)}` : verdict;
    const entry = `run ${measure.run} ${share.toFixed(2)}× ${short}`;
    bySystem.set(measure.system, [...(bySystem.get(measure.system) ?? []), entry]);
  });
  const overall: Record<string, string> = {};
  for (const system of JUDGED) {
    const list = bySystem.get(system) ?? [];
    const passed = list.filter((entry) => entry.endsWith(' PASS')).length;
    const summary = list.some((entry) => entry.endsWith(' FAIL'))
      ? 'FAIL'
      : passed < list.length || list.length === 0
        ? TOO_LOADED
        : passed < GOAL_RUNS
          ? `not judged: PASS in ${passed} of the ${GOAL_RUNS} runs the goal asks for`
          : 'PASS';
    overall[system] = `${summary} (${list.join(', ') || 'not measured'})`;
  }
  return { shares, verdicts, overall };
}
