import { describe, expect, it, vi } from 'vitest';
import { createCounterStore } from './counter-store.ts';

describe('createCounterStore', () => {
  it('starts at 0, adds and sets, never below 0', () => {
    const store = createCounterStore();
    expect(store.get()).toBe(0);
    store.add(3);
    store.add(-1);
    expect(store.get()).toBe(2);
    store.add(-5);
    expect(store.get()).toBe(0);
    store.set(7.9);
    expect(store.get()).toBe(7);
    store.set(Number.NaN);
    expect(store.get()).toBe(0);
  });

  it('notifies subscribers of changes only, until they unsubscribe', () => {
    const store = createCounterStore(1);
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    store.set(1);
    expect(listener).not.toHaveBeenCalled();
    store.set(2);
    expect(listener).toHaveBeenCalledTimes(1);
    unsubscribe();
    store.set(3);
    expect(listener).toHaveBeenCalledTimes(1);
  });
});
