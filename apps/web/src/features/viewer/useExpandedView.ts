import { useCallback, useEffect, useState } from 'react';

/**
 * Full screen for the viewer page: the page covers the window (above the app's header and menu) and the browser is
 * asked for full screen on the document, so menus, tooltips and drawers, which render in <body>, stay visible. Where
 * the browser refuses full screen, the page still covers the window. Leaving the browser's full screen (Esc) leaves
 * this mode too.
 */
export function useExpandedView() {
  const [expanded, setExpanded] = useState(false);

  useEffect(() => {
    const onChange = () => {
      if (!document.fullscreenElement) setExpanded(false);
    };
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

  // Leaving the page while expanded must not leave the browser in full screen.
  useEffect(
    () => () => {
      if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    },
    [],
  );

  const toggle = useCallback(() => {
    if (expanded) {
      if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    } else if (document.fullscreenEnabled) {
      void document.documentElement.requestFullscreen().catch(() => undefined);
    }
    setExpanded(!expanded);
  }, [expanded]);

  return { expanded, toggle };
}
