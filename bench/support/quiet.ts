import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Above this 1-minute load average a ratio to an anchor is not judged: on a busy machine the anchor (nginx,
 * vips) may slow more than we do, and a pass measured so is no pass.
 */
export const QUIET_LOAD = 2;

/** The 1-minute load average now. */
export const loadNow = (): number => os.loadavg()[0]!;

/** How long a bench waits for the load of its own previous measure to fall back under QUIET_LOAD. */
const QUIET_WAIT_MS = 120_000;
const QUIET_POLL_MS = 2_000;

/**
 * Waits until the 1-minute load average is at most QUIET_LOAD (or QUIET_WAIT_MS have passed) and returns it, so
 * that a measure is judged on the machine as others left it: a bench's own last measure (wrk and 16 connections on
 * two cores) lifts the lagging average past 2 by itself, and without the wait no later measure could be judged.
 */
export async function loadWhenQuiet(): Promise<number> {
  const deadline = Date.now() + QUIET_WAIT_MS;
  while (loadNow() > QUIET_LOAD && Date.now() < deadline) await sleep(QUIET_POLL_MS);
  return loadNow();
}

/** PASS or FAIL when every measure behind a verdict ran on a quiet machine; otherwise no verdict at all. */
export function verdictWhenQuiet(ok: boolean, loads: readonly number[]): 'PASS' | 'FAIL' | 'NOT JUDGED' {
  if (loads.some((load) => load > QUIET_LOAD)) return 'NOT JUDGED';
  return ok ? 'PASS' : 'FAIL';
}
