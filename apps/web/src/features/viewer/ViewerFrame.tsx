import { Box } from '@mantine/core';
import type { ReactNode } from 'react';

/** Above the app header and menu (100), below drawers (200), popovers and tooltips (300). */
const EXPANDED_Z_INDEX = 190;

/**
 * The viewer's full-page layout: fixed over the app shell's content area (between the header and the menu, read from
 * the AppShell's offset variables), or over the whole window when expanded to full screen.
 */
export function ViewerFrame({ expanded, children }: { expanded: boolean; children: ReactNode }) {
  return (
    <Box
      data-testid="viewer-page"
      data-expanded={expanded}
      style={{
        position: 'fixed',
        top: expanded ? 0 : 'var(--app-shell-header-offset, 0rem)',
        left: expanded ? 0 : 'var(--app-shell-navbar-offset, 0rem)',
        right: 0,
        bottom: 0,
        zIndex: expanded ? EXPANDED_Z_INDEX : 1,
        display: 'flex',
        flexDirection: 'column',
        background: 'var(--mantine-color-body)',
      }}
    >
      {children}
    </Box>
  );
}
