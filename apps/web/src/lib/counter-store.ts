import { useSyncExternalStore } from 'react';

/** A number that components can read and any code can change: badge counts kept by the browser alone. */
export interface CounterStore {
  get: () => number;
  set: (value: number) => void;
  /** Adds `delta` (negative to subtract); the count never drops below 0. */
  add: (delta: number) => void;
  subscribe: (listener: () => void) => () => void;
}

export function createCounterStore(initial = 0): CounterStore {
  let value = Math.max(0, initial);
  const listeners = new Set<() => void>();
  const set = (next: number) => {
    const clamped = Number.isFinite(next) ? Math.max(0, Math.trunc(next)) : 0;
    if (clamped === value) return;
    value = clamped;
    for (const listener of listeners) listener();
  };
  return {
    get: () => value,
    set,
    add: (delta) => set(value + delta),
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The store's current value; the component re-renders when it changes. */
export function useCounter(store: CounterStore): number {
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}
