import os from 'node:os';

/**
 * Above this 1-minute load average a ratio to an anchor is not judged: on a busy machine the anchor (nginx,
 * vips) may slow more than we do, and a pass measured so is no pass.
 */
export const QUIET_LOAD = 2;

/** The 1-minute load average now. */
export const loadNow = (): number => os.loadavg()[0]!;

/** PASS or FAIL when every measure behind a verdict ran on a quiet machine; otherwise no verdict at all. */
export function verdictWhenQuiet(ok: boolean, loads: readonly number[]): 'PASS' | 'FAIL' | 'NOT JUDGED' {
  if (loads.some((load) => load > QUIET_LOAD)) return 'NOT JUDGED';
  return ok ? 'PASS' : 'FAIL';
}
