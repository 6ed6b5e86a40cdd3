import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { busySeconds, phaseLine } from './machine-cpu.ts';

const STAT = `cpu  9751768 336898 4196262 2815728 101725 0 94726 5000 0 0
cpu0 4875884 168449 2098131 1407864 50862 0 47363 2500 0 0
intr 1 2 3
`;

describe('the machine CPU a phase used', () => {
  it('counts user, nice, system, irq and softirq, not idle, iowait or steal', () => {
    expect(busySeconds(STAT)).toBeCloseTo((9751768 + 336898 + 4196262 + 0 + 94726) / 100, 6);
    expect(busySeconds('intr 1 2\n')).toBeNull();
    expect(busySeconds('cpu  1 2 x 4 5 6 7\n')).toBeNull();
  });

  it('prints the line .ci/run gathers, with the share of the cores', () => {
    const cores = os.availableParallelism();
    const line = phaseLine('journeys', 100.4, 100 * cores * 0.9);
    expect(line).toBe(`phase journeys: 100 s (CPU ${90 * cores} s, 90 % of ${cores} cores)`);
    expect(line).toMatch(/^phase [^:]+: [0-9]+ s( \(.*\))?$/);
    expect(phaseLine('build', 3, null)).toBe('phase build: 3 s');
  });

  it('is counted the same way by .ci/run', () => {
    const script = execFileSync('sed', ['-n', '/^busy_ticks()/p', '.ci/run'], { encoding: 'utf8' });
    const awk = /awk '([^']+)'/.exec(script)?.[1];
    expect(awk).toBeDefined();
    const ticks = Number(execFileSync('awk', [awk!], { input: STAT, encoding: 'utf8' }).trim());
    expect(ticks / 100).toBeCloseTo(busySeconds(STAT)!, 6);
  });
});
