import os from 'node:os';
import { formatTable } from '../support/table.ts';
import { SAMPLE_MS, type StateSample } from './monitor.ts';
import type { ImportRecord } from './imports.ts';
import type { SoakOptions } from './options.ts';
import { latencyByKind, percentile, slope, statusCounts, type Kind, type Recorder, type Sample } from './stats.ts';
import type { Kill } from './target.ts';
import type { UploadRecord } from './uploads.ts';
import { lostWrites, type Write } from './writes.ts';

/** Everything a run saw, for the report and the test. */
export interface SoakResult {
  options: SoakOptions;
  startedAt: number;
  endedAt: number;
  recorder: Recorder;
  states: StateSample[];
  writes: Write[];
  uploads: UploadRecord[];
  imports: ImportRecord[];
  kills: Kill[];
  /** Kill to the first 200 of /api/v1/health/ready, per kill of a process started again, in ms. */
  downtimesMs: number[];
}

/** The issue's goals (issue 46). */
export const GOALS = { tileP99Ms: 300, apiP99Ms: 500, loopP99Ms: 100, rssMiBPerMinute: 5 };
const GOAL_OF_KIND: Partial<Record<Kind, number>> = {
  tile: GOALS.tileP99Ms,
  'detection tile': GOALS.tileP99Ms,
  'API read': GOALS.apiP99Ms,
  'API write': GOALS.apiP99Ms,
};
/** RSS is judged after this share of the run (at least a minute) since the process started. */
const WARM_UP_SHARE = 0.2;
/** Slowest answers listed per tile kind. */
const SLOWEST_SHOWN = 3;

const fixed = (value: number | null, digits = 0) =>
  value == null || Number.isNaN(value) ? '–' : value.toFixed(digits);

/** One line of the run's progress: the interval's answers and the server's latest state. */
export function intervalLine(
  recorder: Recorder,
  states: readonly StateSample[],
  from: number,
  to: number,
  startedAt: number,
): string {
  const answers = recorder.samples.filter((sample) => sample.at > from && sample.at <= to);
  const errors = answers.filter((sample) => sample.status === 0 || sample.status >= 500).length;
  const tiles = answers
    .filter((sample) => sample.kind === 'tile' && sample.status > 0)
    .map((sample) => sample.ms)
    .sort((a, b) => a - b);
  const recent = states.filter((state) => state.at > from && state.at <= to);
  const loop = Math.max(...recent.map((state) => state.loopP99Ms ?? Number.NaN));
  const last = recent.at(-1);
  const oldest = [...recorder.inFlight.values()].sort((a, b) => a.since - b.since)[0];
  const stuck =
    oldest != null && to - oldest.since > 10_000
      ? `, oldest of ${recorder.inFlight.size} in flight: ${fixed((to - oldest.since) / 1000)} s ${oldest.path}`
      : '';
  return (
    `${fixed((to - startedAt) / 1000).padStart(4)} s: ${answers.length} requests, ${errors} failed (5xx or none), ` +
    `tile p99 ${fixed(percentile(tiles, 99))} ms, loop p99 ${fixed(loop)} ms, RSS ${fixed(last?.rssMiB ?? null)} MiB ` +
    `(tile caches ${fixed(last?.cacheMiB ?? null)}, JS heap ${fixed(last?.heapMiB ?? null)}, ` +
    `external ${fixed(last?.externalMiB ?? null)}), ` +
    `PostgreSQL connections ${fixed(last?.postgresConnections ?? null)} (pool ${fixed(last?.poolConnections ?? null)}), ` +
    `load ${os.loadavg()[0]!.toFixed(2)}${stuck}`
  );
}

export interface Verdict {
  goal: string;
  value: string;
  verdict: 'PASS' | 'FAIL' | 'NOT JUDGED';
}

/** Where each life of the server began: the run's start, then each first ready answer after a kill. */
function lifeStarts(result: SoakResult): number[] {
  return [result.startedAt, ...result.recorder.outages.map((outage) => outage.readyAt ?? Number.POSITIVE_INFINITY)];
}

/**
 * MiB per minute over the last life's samples after its warm-up, or null with less than a minute of them: of RSS
 * itself, and of RSS less what the tile caches hold (they fill up to TILE_CACHE_MB over many minutes of viewing,
 * which is growth by design; what grows beside them is what a leak would be).
 */
function rssGrowth(result: SoakResult): { rss: number; beyondCaches: number | null } | null {
  const starts = lifeStarts(result);
  const life = starts.length - 1;
  const warmUp = Math.max(60_000, WARM_UP_SHARE * result.options.minutes * 60_000);
  const states = result.states
    .filter((state) => state.life === life && state.rssMiB != null && state.at >= starts[life]! + warmUp)
    .filter((state) => state.at <= result.startedAt + result.options.minutes * 60_000);
  const x = (state: StateSample) => state.at / 60_000;
  if (states.length < 2 || x(states.at(-1)!) - x(states[0]!) < 1) return null;
  const rss = slope(states.map((state) => ({ x: x(state), y: state.rssMiB! })));
  const withCaches = states.filter((state) => state.cacheMiB != null);
  const beyondCaches =
    withCaches.length === states.length
      ? slope(withCaches.map((state) => ({ x: x(state), y: state.rssMiB! - state.cacheMiB! })))
      : null;
  return { rss, beyondCaches };
}

/** Worst event-loop delay p99 of the samples whose interval lies wholly outside the downtime and the restarts. */
function loopP99(result: SoakResult): number | null {
  const starts = lifeStarts(result);
  const values = result.states
    .filter((state) => state.loopP99Ms != null)
    .filter((state) => !starts.slice(1).some((start) => state.at - SAMPLE_MS <= start && state.at >= start - 1))
    .filter((state) => !result.recorder.duringOutage(state.at) && !result.recorder.duringOutage(state.at - SAMPLE_MS))
    .map((state) => state.loopP99Ms!);
  return values.length === 0 ? null : Math.max(...values);
}

/** Slowest answers of each kind with a tile goal, with when they came: what to look at when its p99 fails. */
function slowestLines(result: SoakResult): string[] {
  const judged = result.recorder.judged().filter((sample) => sample.status > 0);
  return (['tile', 'detection tile'] as const).flatMap((kind) => {
    const slowest = judged
      .filter((sample) => sample.kind === kind)
      .sort((a, b) => b.ms - a.ms)
      .slice(0, SLOWEST_SHOWN);
    if (slowest.length === 0) return [];
    const at = (sample: Sample) => `${fixed((sample.at - result.startedAt) / 1000, 0)} s`;
    return [
      `Slowest ${kind}s: ` +
        slowest.map((sample) => `${fixed(sample.ms, 0)} ms at ${at(sample)} (${sample.path})`).join('; '),
    ];
  });
}

/** Counts that the test judges too. */
export function tally(result: SoakResult) {
  const judged = result.recorder.judged();
  return {
    serverErrorsOutsideDowntime: judged.filter((sample) => sample.status >= 500).length,
    unansweredOutsideDowntime: judged.filter((sample) => sample.status === 0).length,
    lostWrites: lostWrites(result.writes).length,
    uploadsNotConverted: result.uploads.filter((upload) => !upload.converted).length,
    importsNotCompleted: result.imports.filter((record) => !record.completed).length,
  };
}

/** The 5xx answers that came inside each kill's excused interval, and those outside every one. */
export function serverErrorsByKill(result: SoakResult): { inside: number[]; outside: number } {
  const errors = result.recorder.samples.filter((sample) => sample.status >= 500);
  return {
    inside: result.kills.map(
      (kill) => errors.filter((sample) => sample.at >= kill.killedAt && sample.at <= kill.excusedUntil).length,
    ),
    outside: result.recorder.judged().filter((sample) => sample.status >= 500).length,
  };
}

/** Lines on the kills of processes left dead (the scaled topology): when, and the 5xx around them. */
function killLines(result: SoakResult): string[] {
  if (result.kills.every((kill) => kill.restarted)) return [];
  const { inside, outside } = serverErrorsByKill(result);
  return [
    "Kills (kill -9, not started again; a 5xx is excused inside nginx's health interval after an API's kill):",
    ...result.kills.map(
      (kill, i) =>
        `  ${kill.process} at ${fixed((kill.killedAt - result.startedAt) / 1000)} s` +
        (kill.note ? ` (${kill.note})` : '') +
        `: 5xx inside its interval of ${fixed((kill.excusedUntil - kill.killedAt) / 1000, 1)} s: ${inside[i]}`,
    ),
    `  5xx outside every interval: ${outside}`,
  ];
}

/** The run's figures and a verdict per goal. */
export function finalReport(result: SoakResult): { text: string; verdicts: Verdict[] } {
  const { recorder } = result;
  const counts = tally(result);
  const lines: string[] = [];
  const minutes = (result.endedAt - result.startedAt) / 60_000;
  const scaled = result.options.topology === 'scaled';
  const excused = scaled ? "the kills' health intervals" : 'the downtime';
  lines.push(
    `\nRequests: ${recorder.samples.length} in ${minutes.toFixed(1)} min (the run and its finish: last conversions, ` +
      'imports, reading back); by status: ' +
      statusCounts(recorder.samples)
        .map(([status, count]) => `${status === 0 ? 'no answer' : status} × ${count}`)
        .join(', '),
  );
  lines.push(...killLines(result));
  if (result.downtimesMs.length > 0) {
    lines.push(
      `Downtime (kill -9 → first 200 of /api/v1/health/ready): ` +
        result.downtimesMs.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(', ') +
        `; inside it: ${recorder.samples.length - recorder.judged().length} answers, by status: ` +
        statusCounts(recorder.samples.filter((sample) => recorder.duringOutage(sample.at)))
          .map(([status, count]) => `${status === 0 ? 'no answer' : status} × ${count}`)
          .join(', '),
    );
  }
  const failures = new Map<string, number>();
  for (const sample of recorder.judged()) {
    if (sample.status >= 200 && sample.status < 400) continue;
    const key = `${sample.status} ${sample.method} ${sample.path.replace(/[0-9a-f-]{36}/g, ':id').replace(/\?.*/, '')}`;
    failures.set(key, (failures.get(key) ?? 0) + 1);
  }
  if (failures.size > 0) {
    lines.push(
      `Answers other than 2xx and 3xx outside ${excused}:` +
        [...failures].map(([key, count]) => `\n  ${key} × ${count}`).join(''),
    );
  }
  lines.push(`\nLatency outside ${excused}, answered requests (ms):`);
  lines.push(
    formatTable(
      [
        { title: 'kind' },
        { title: 'count', align: 'right' },
        { title: 'p50', align: 'right' },
        { title: 'p95', align: 'right' },
        { title: 'p99', align: 'right' },
        { title: 'max', align: 'right' },
        { title: 'goal p99', align: 'right' },
      ],
      latencyByKind(recorder.judged()).map((row) => [
        row.kind,
        String(row.count),
        fixed(row.p50),
        fixed(row.p95),
        fixed(row.p99),
        fixed(row.max),
        GOAL_OF_KIND[row.kind] == null ? '–' : `< ${GOAL_OF_KIND[row.kind]}`,
      ]),
    ),
  );
  lines.push(...slowestLines(result));
  const drawings = result.writes.filter((write) => write.what === 'drawing');
  const notes = result.writes.filter((write) => write.what === 'note');
  const describe = (list: typeof drawings) =>
    `${list.length} saved, ${list.filter((write) => write.acknowledged).length} acknowledged, ` +
    `${list.filter((write) => write.found).length} read back with their content`;
  lines.push(`\nDrawings: ${describe(drawings)}\nNotes: ${describe(notes)}`);
  lines.push(
    `Uploads (tus): ${result.uploads.length} started, ${result.uploads.filter((upload) => upload.acknowledged).length} ` +
      `fully sent, ${result.uploads.filter((upload) => upload.converted).length} converted` +
      result.uploads
        .filter((upload) => !upload.converted || upload.foundUnacknowledged)
        .map(
          (upload) =>
            `\n  ${upload.filename}: ${upload.error ?? 'not converted'}` +
            (upload.foundUnacknowledged
              ? ' (its image was found all the same; converted: ' + (upload.converted ? 'yes)' : 'no)')
              : ''),
        )
        .join(''),
  );
  for (const record of result.imports) {
    lines.push(
      `Detection import of ${record.objects}: ${record.completed ? `completed in ${fixed(record.seconds, 1)} s` : `NOT completed (${record.error})`}` +
        `, sent at ${fixed((record.startedAt - result.startedAt) / 1000, 0)} s` +
        (record.retries > 0 ? `, asked again ${record.retries}×` : ''),
    );
  }
  const ownRss = result.states.map((state) => state.rssMiB).filter((value): value is number => value != null);
  const connections = result.states
    .map((state) => state.postgresConnections)
    .filter((value): value is number => value != null);
  lines.push(
    `${scaled ? 'Servers (summed over the processes running)' : 'Server'}: ` +
      `RSS ${fixed(Math.min(...ownRss))}–${fixed(Math.max(...ownRss))} MiB, PostgreSQL connections ` +
      `${fixed(Math.min(...connections))}–${fixed(Math.max(...connections))}; load average at the end ` +
      `${os
        .loadavg()
        .map((load) => load.toFixed(2))
        .join(' ')}`,
  );

  const latency = latencyByKind(recorder.judged());
  const worst = (kinds: Kind[]) =>
    Math.max(...latency.filter((row) => kinds.includes(row.kind) && row.count > 0).map((row) => row.p99));
  const verdict = (ok: boolean | null): Verdict['verdict'] => (ok == null ? 'NOT JUDGED' : ok ? 'PASS' : 'FAIL');
  const tileP99 = worst(['tile', 'detection tile']);
  const apiP99 = worst(['API read', 'API write']);
  const loop = loopP99(result);
  const growth = rssGrowth(result);
  const lost = counts.lostWrites + counts.uploadsNotConverted + counts.importsNotCompleted;
  const verdicts: Verdict[] = [
    {
      goal: `0 answers 5xx (outside ${excused})`,
      value: `${counts.serverErrorsOutsideDowntime} (and ${counts.unansweredOutsideDowntime} without an answer)`,
      verdict: verdict(counts.serverErrorsOutsideDowntime === 0),
    },
    {
      goal: '0 lost writes (drawings, notes, uploads converted, imports completed)',
      value: `${counts.lostWrites} drawings/notes, ${counts.uploadsNotConverted} uploads, ${counts.importsNotCompleted} imports`,
      verdict: verdict(lost === 0),
    },
    {
      goal: `tile p99 < ${GOALS.tileP99Ms} ms`,
      value: `${fixed(tileP99)} ms`,
      verdict: verdict(tileP99 < GOALS.tileP99Ms),
    },
    { goal: `API p99 < ${GOALS.apiP99Ms} ms`, value: `${fixed(apiP99)} ms`, verdict: verdict(apiP99 < GOALS.apiP99Ms) },
    {
      goal: `event-loop delay p99 < ${GOALS.loopP99Ms} ms (worst ${SAMPLE_MS / 1000}-s interval)`,
      value: `${fixed(loop)} ms`,
      verdict: verdict(loop == null ? null : loop < GOALS.loopP99Ms),
    },
    {
      goal: `RSS growth after warm-up, less the tile caches' fill, < ${GOALS.rssMiBPerMinute} MiB/min`,
      value:
        growth == null
          ? 'under a minute after warm-up'
          : `${fixed(growth.beyondCaches, 2)} MiB/min (RSS itself ${fixed(growth.rss, 2)})`,
      verdict: verdict(growth?.beyondCaches == null ? null : growth.beyondCaches < GOALS.rssMiBPerMinute),
    },
  ];
  lines.push('\nGoals:');
  lines.push(
    formatTable(
      [{ title: 'goal' }, { title: 'measured' }, { title: 'verdict' }],
      verdicts.map((row) => [row.goal, row.value, row.verdict]),
    ),
  );
  return { text: lines.join('\n'), verdicts };
}
