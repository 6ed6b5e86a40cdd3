import { useEffect, useRef } from 'react';
import { shortcutOf, type ViewerShortcut } from './viewer-shortcuts.ts';

/** Handlers by shortcut; a missing one (e.g. snapshot when screenshots are denied) leaves the key alone. */
export type ShortcutHandlers = Partial<Record<ViewerShortcut, () => void>> & {
  /** False where a page around the viewer has keys of its own (the comparison view). */
  enabled?: boolean;
};

/** Listens to the page's key presses while the viewer is shown. */
export function useViewerShortcuts(handlers: ShortcutHandlers): void {
  const latest = useRef(handlers);
  useEffect(() => {
    latest.current = handlers;
  });

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (latest.current.enabled === false) return;
      const shortcut = shortcutOf(event);
      const handler = shortcut && latest.current[shortcut];
      if (!handler) return;
      event.preventDefault();
      handler();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}
