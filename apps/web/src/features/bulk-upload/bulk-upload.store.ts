import { useSyncExternalStore } from 'react';
import { bulkReducer, INITIAL_BULK_STATE, type BulkEvent, type BulkState } from './bulk-upload.machine.ts';

// Module state, so leaving /bulk-upload and coming back finds the batch where it was (uploads keep running).
let state: BulkState = INITIAL_BULK_STATE;
const listeners = new Set<() => void>();

export function dispatchBulk(event: BulkEvent): void {
  const next = bulkReducer(state, event);
  if (next === state) return;
  state = next;
  for (const listener of listeners) listener();
}

export function getBulkState(): BulkState {
  return state;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useBulkState(): BulkState {
  return useSyncExternalStore(subscribe, getBulkState, getBulkState);
}
