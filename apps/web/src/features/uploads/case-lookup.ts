import { shouldRetry } from '../../app/query-client.ts';
import type { CaseMatch } from './upload-dialog.state.ts';

/** Tries of the case picker's lookup before it shows its error: a busy server gets a few more than other reads. */
const LOOKUP_TRIES = 6;

/** Whether the case picker asks again after its `failureCount`-th failed lookup: only for failures that may pass. */
export function retryCaseLookup(failureCount: number, error: unknown): boolean {
  return failureCount < LOOKUP_TRIES - 1 && shouldRetry(0, error);
}

/** Waits between the lookup's tries: 0.5, 1, 2, then 4 s. */
export function caseLookupDelay(attempt: number): number {
  return Math.min(500 * 2 ** attempt, 4_000);
}

/** What the picker's lookup of the typed number says, once the typing has paused on it. */
export interface LookupAnswer {
  text: string;
  debounced: string;
  settled: boolean;
  failed: boolean;
  found: CaseMatch | null | undefined;
}

/**
 * The match the dialog takes from the lookup: the case found, null for a number the group does not have, or
 * undefined while it is not known, which keeps Upload disabled. A lookup that failed says nothing about the
 * number: taking it for a new one would create a second case of a number the group may already have.
 */
export function lookupMatch({ text, debounced, settled, failed, found }: LookupAnswer): CaseMatch | null | undefined {
  if (text === '' || debounced !== text || failed || !settled) return undefined;
  return found ?? null;
}
