import fs from 'node:fs';
import os from 'node:os';

/** Linux counts /proc/stat in USER_HZ, 100 per second on every architecture Node runs on. */
const TICKS_PER_SECOND = 100;

/**
 * Busy CPU seconds of the whole machine so far, from the first line of /proc/stat (user, nice, system, irq,
 * softirq; idle, iowait and the hypervisor's steal left out), or null where there is none. A phase's difference says whether it
 * kept the cores busy, whoever spent it: vitest's forks, the servers it starts, PostgreSQL, Chromium.
 */
export function busySeconds(procStat: string): number | null {
  const fields = /^cpu\s+(.*)$/m.exec(procStat)?.[1]?.trim().split(/\s+/).map(Number);
  if (fields == null || fields.length < 7 || fields.some((value) => !Number.isFinite(value))) return null;
  const [user, nice, system, , , irq, softirq] = fields;
  return (user! + nice! + system! + irq! + softirq!) / TICKS_PER_SECOND;
}

export function machineBusySeconds(): number | null {
  try {
    return busySeconds(fs.readFileSync('/proc/stat', 'utf8'));
  } catch {
    return null;
  }
}

/** "phase NAME: N s", with the machine's busy CPU over it when known: the form .ci/run gathers. */
export function phaseLine(phase: string, wallSeconds: number, busy: number | null): string {
  const wall = Math.round(wallSeconds);
  if (busy == null || wallSeconds <= 0) return `phase ${phase}: ${wall} s`;
  const cores = os.availableParallelism();
  const share = Math.round((100 * busy) / (wallSeconds * cores));
  return `phase ${phase}: ${wall} s (CPU ${Math.round(busy)} s, ${share} % of ${cores} cores)`;
}
