import { useCallback, useMemo, useSyncExternalStore } from 'react';
import {
  parsePreference,
  writePreference,
  type LocalPreferenceKey,
  type LocalPreferences,
} from './viewer-preferences.ts';

const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab changed a preference: follow it.
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

function storedText(key: LocalPreferenceKey): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** A local preference as state: read from localStorage (defaults when unreadable), written back on change. */
export function useLocalPreference<K extends LocalPreferenceKey>(
  key: K,
): [LocalPreferences[K], (value: LocalPreferences[K]) => void] {
  const text = useSyncExternalStore(subscribe, () => storedText(key));
  const value = useMemo(() => parsePreference(key, text), [key, text]);
  const setValue = useCallback(
    (next: LocalPreferences[K]) => {
      writePreference(key, next);
      for (const listener of listeners) listener();
    },
    [key],
  );
  return [value, setValue];
}
