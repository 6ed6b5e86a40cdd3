import fs from 'node:fs';
import os from 'node:os';
import { QUIET_LOAD, verdictWhenQuiet } from '../support/quiet.ts';
import { summarize } from '../support/stats.ts';
import { formatTable } from '../support/table.ts';
import type { WrkResult } from './wrk.ts';

export type Mode = 'aligned' | 'unaligned';

export interface Measurement {
  system: string;
  mode: Mode;
  connections: number;
  phase: 'cold' | 'warm';
  /** 1, 2, …: the systems take turns (ours, anchor, ours, anchor) so a change of load hits both. */
  round: number;
  /** 1-minute load average just before this measure. */
  load: number;
  result: WrkResult;
  /** Tiles the cold pass had to ask for (its list), for the table. */
  listed: number;
}

export interface Goals {
  alignedVsNginx: number;
  unalignedVsIip: Record<number, number>;
  maxMs: number;
}

/** Our warm tiles/s per request kind and connection count, kept in the repository to compare each run with. */
interface Baseline {
  recorded: string;
  cpu: string;
  revision: string;
  warm: Record<string, number>;
}

const BASELINE_FILE = new URL('./baseline.json', import.meta.url);
/** A drop of our warm throughput beyond this, against the baseline, is flagged. */
const REGRESSION = 0.1;

export const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '-');

export function printTable(measurements: readonly Measurement[]): void {
  const rows = measurements.map((m) => [
    m.system,
    m.mode,
    String(m.connections),
    String(m.round),
    m.phase,
    fixed(m.load, 2),
    m.phase === 'cold' ? `${m.result.requests}/${m.listed}` : String(m.result.requests),
    fixed(m.result.seconds),
    fixed(m.result.perSecond, 0),
    fixed(m.result.p50),
    fixed(m.result.p99),
    fixed(m.result.max),
    String(m.result.errors),
  ]);
  const right = (title: string) => ({ title, align: 'right' as const });
  console.log(
    formatTable(
      [
        { title: 'system' },
        { title: 'request' },
        right('conns'),
        right('round'),
        { title: 'phase' },
        right('load'),
        right('tiles'),
        right('s'),
        right('tiles/s'),
        right('p50 ms'),
        right('p99 ms'),
        right('max ms'),
        right('errors'),
      ],
      rows,
    ),
  );
}

function select(measurements: readonly Measurement[], system: string, mode: Mode, conns: number, phase: string) {
  return measurements.filter(
    (m) => m.system === system && m.mode === mode && m.connections === conns && m.phase === phase,
  );
}

/** Median tiles/s over the rounds, and the loads they ran at. */
function medianRate(measurements: readonly Measurement[]) {
  if (measurements.length === 0) return null;
  return {
    perSecond: summarize(measurements.map((m) => m.result.perSecond)).median,
    loads: measurements.map((m) => m.load),
  };
}

/**
 * Where Node's own HTTP server stands (the floor system, no verdict): the share of nginx no Node server can pass
 * here, and how much of it ours keeps.
 */
function floorLines(measurements: readonly Measurement[], connections: readonly number[]): string[] {
  return connections.flatMap((conns) => {
    const rate = (system: string) => medianRate(select(measurements, system, 'aligned', conns, 'warm'))?.perSecond;
    const [floor, nginx, ours] = [rate('Node floor'), rate('nginx static'), rate('ours')];
    if (floor == null) return [];
    const share = (a: number | undefined, b: number | undefined) =>
      a == null || b == null ? '-' : `${(a / b).toFixed(2)}×`;
    return [
      `  Node floor aligned, ${conns} conn${conns === 1 ? '' : 's'} (no goal): ${share(floor, nginx)} nginx static; ` +
        `ours ${share(ours, floor)} the floor`,
    ];
  });
}

/** The goals, judged on the median of the warm rounds; returns how many failed. */
export function printGoals(measurements: readonly Measurement[], connections: readonly number[], goals: Goals): number {
  const lines: string[] = [];
  const verdicts: string[] = [];
  const ratioGoal = (mode: Mode, other: string, factor: number, conns: number) => {
    const ratio = (phase: 'cold' | 'warm') => {
      const ours = medianRate(select(measurements, 'ours', mode, conns, phase));
      const theirs = medianRate(select(measurements, other, mode, conns, phase));
      return ours == null || theirs == null
        ? null
        : { ratio: ours.perSecond / theirs.perSecond, loads: [...ours.loads, ...theirs.loads] };
    };
    const [warm, cold] = [ratio('warm'), ratio('cold')];
    let judged = 'warm n/a';
    if (warm != null) {
      const verdict = verdictWhenQuiet(warm.ratio >= factor, warm.loads);
      verdicts.push(verdict);
      judged = `warm ${warm.ratio.toFixed(2)}× ${verdict} (load ${Math.max(...warm.loads).toFixed(2)} at most)`;
    }
    const reference = cold == null ? '' : `; cold ${cold.ratio.toFixed(2)}×`;
    lines.push(
      `  ours ${mode} ≥ ${factor}× ${other} ${mode}, ${conns} conn${conns === 1 ? '' : 's'}: ${judged}${reference}`,
    );
  };
  for (const conns of connections) ratioGoal('aligned', 'nginx static', goals.alignedVsNginx, conns);
  for (const conns of connections) ratioGoal('unaligned', 'IIPImage', goals.unalignedVsIip[conns]!, conns);
  lines.push(...floorLines(measurements, connections));
  const ours = measurements.filter((m) => m.system === 'ours');
  const worst = Math.max(...ours.map((m) => m.result.max));
  const errors = ours.reduce((sum, m) => sum + m.result.errors, 0);
  const slowest = verdictWhenQuiet(
    worst <= goals.maxMs && errors === 0,
    ours.map((m) => m.load),
  );
  verdicts.push(slowest);
  lines.push(
    `  no request of our server over ${goals.maxMs} ms: max ${fixed(worst)} ms over all our runs, ${errors} errors: ${slowest}`,
  );
  const failed = verdicts.filter((verdict) => verdict === 'FAIL').length;
  const unjudged = verdicts.filter((verdict) => verdict === 'NOT JUDGED').length;
  const summary =
    unjudged > 0
      ? `${unjudged} not judged: the load average passed ${QUIET_LOAD} during their measures; run again on a quiet machine`
      : failed === 0
        ? 'all PASS'
        : `${failed} FAIL`;
  console.log(`\nGoals (tiles/s ratios, median of the rounds)\n${lines.join('\n')}\n\n${summary}`);
  return failed;
}

function ourWarmRates(measurements: readonly Measurement[]): Record<string, number> {
  const rates: Record<string, number> = {};
  for (const m of measurements) {
    const key = `${m.mode} ${m.connections}`;
    if (m.system !== 'ours' || m.phase !== 'warm' || key in rates) continue;
    rates[key] = medianRate(select(measurements, 'ours', m.mode, m.connections, 'warm'))!.perSecond;
  }
  return rates;
}

/**
 * Today's warm figures beside the stored baseline's, a drop of more than 10 % flagged; `save` stores today's
 * as the new baseline (only from a quiet run).
 */
export function compareWithBaseline(
  measurements: readonly Measurement[],
  options: { save: boolean; revision: string },
) {
  const today = ourWarmRates(measurements);
  const stored = fs.existsSync(BASELINE_FILE) ? (JSON.parse(fs.readFileSync(BASELINE_FILE, 'utf8')) as Baseline) : null;
  const lines = Object.entries(today).map(([key, rate]) => {
    const before = stored?.warm[key];
    if (before == null) return `  ours ${key} conn warm: ${fixed(rate, 0)}/s (no baseline)`;
    const change = rate / before - 1;
    const flag = change < -REGRESSION ? `  REGRESSION (more than ${REGRESSION * 100} % below)` : '';
    return `  ours ${key} conn warm: ${fixed(rate, 0)}/s against ${fixed(before, 0)}/s, ${change >= 0 ? '+' : ''}${(change * 100).toFixed(0)} %${flag}`;
  });
  const origin = stored == null ? 'none stored' : `${stored.revision}, ${stored.recorded}, on ${stored.cpu}`;
  console.log(`\nAgainst the baseline (bench/tiles/baseline.json: ${origin})\n${lines.join('\n')}`);
  if (!options.save) return;
  const loads = measurements.map((m) => m.load);
  if (loads.some((load) => load > QUIET_LOAD)) {
    console.log(`Baseline not saved: the load average passed ${QUIET_LOAD} during the measures.`);
    return;
  }
  const baseline: Baseline = {
    recorded: new Date().toISOString(),
    cpu: `${os.cpus()[0]?.model.trim() ?? 'unknown'} × ${os.cpus().length}`,
    revision: options.revision,
    warm: today,
  };
  fs.writeFileSync(BASELINE_FILE, `${JSON.stringify(baseline, null, 2)}\n`);
  console.log('Baseline saved.');
}
