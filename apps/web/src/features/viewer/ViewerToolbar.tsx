import { ActionIcon, Menu, Paper, Stack, Tooltip } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  IconCamera,
  IconDotsVertical,
  IconHome,
  IconMaximize,
  IconMinimize,
  IconPalette,
  IconRotateClockwise,
  IconZoomIn,
  IconZoomOut,
} from '@tabler/icons-react';

export interface ViewerToolbarProps {
  disabled: boolean;
  expanded: boolean;
  onZoomIn: () => void;
  onZoomOut: () => void;
  onHome: () => void;
  onRotate: () => void;
  onFullscreen: () => void;
  /** Absent when the case denies screenshots: no button at all. */
  onSnapshot?: () => void;
  snapshotBusy?: boolean;
  onColour: () => void;
  colourOpen: boolean;
  /** Smaller buttons: a comparison pane's slide is a quarter of the screen or less. */
  compact?: boolean;
}

/** Tools a comparison pane shows as buttons; the others are in its menu. */
const COMPACT_SHOWN = 3;

interface ToolProps {
  label: string;
  keyHint?: string;
  onClick: () => void;
  disabled?: boolean;
  active?: boolean;
  loading?: boolean;
  compact?: boolean;
  testId: string;
  children: ReactNode;
}

function Tool({ label, keyHint, onClick, disabled, active, loading, compact, testId, children }: ToolProps) {
  return (
    <Tooltip label={keyHint ? `${label} (${keyHint})` : label} position="right" withArrow>
      <ActionIcon
        variant={active ? 'filled' : 'subtle'}
        color={active ? 'violet' : 'dark'}
        size={compact ? 'md' : 'lg'}
        aria-label={label}
        aria-keyshortcuts={keyHint}
        aria-pressed={active}
        onClick={onClick}
        disabled={disabled}
        loading={loading}
        data-testid={testId}
      >
        {children}
      </ActionIcon>
    </Tooltip>
  );
}

/** The slide's tools, floating at its top left: zoom, home, rotate, full screen, snapshot, colour. */
export function ViewerToolbar(props: ViewerToolbarProps) {
  const { t } = useTranslation();
  const { disabled, compact } = props;
  const icon = compact ? 18 : 20;
  const tools: (Omit<ToolProps, 'children'> & { icon: ReactNode })[] = [
    {
      label: t('viewer.tools.zoomIn'),
      keyHint: '+',
      onClick: props.onZoomIn,
      disabled,
      testId: 'tool-zoom-in',
      icon: <IconZoomIn size={icon} />,
    },
    {
      label: t('viewer.tools.zoomOut'),
      keyHint: '-',
      onClick: props.onZoomOut,
      disabled,
      testId: 'tool-zoom-out',
      icon: <IconZoomOut size={icon} />,
    },
    {
      label: t('viewer.tools.home'),
      keyHint: '0',
      onClick: props.onHome,
      disabled,
      testId: 'tool-home',
      icon: <IconHome size={icon} />,
    },
    {
      label: t('viewer.tools.rotate'),
      keyHint: 'R',
      onClick: props.onRotate,
      disabled,
      testId: 'tool-rotate',
      icon: <IconRotateClockwise size={icon} />,
    },
    {
      label: props.expanded ? t('viewer.tools.exitFullscreen') : t('viewer.tools.fullscreen'),
      keyHint: 'F',
      onClick: props.onFullscreen,
      active: props.expanded,
      testId: 'tool-fullscreen',
      icon: props.expanded ? <IconMinimize size={icon} /> : <IconMaximize size={icon} />,
    },
    ...(props.onSnapshot
      ? [
          {
            label: t('viewer.tools.snapshot'),
            keyHint: 'S',
            onClick: props.onSnapshot,
            disabled,
            loading: props.snapshotBusy,
            testId: 'tool-snapshot',
            icon: <IconCamera size={icon} />,
          },
        ]
      : []),
    {
      label: t('viewer.tools.colour'),
      onClick: props.onColour,
      active: props.colourOpen,
      disabled,
      testId: 'tool-colour',
      icon: <IconPalette size={icon} />,
    },
  ];
  // A comparison pane's slide may be under 300 pixels tall: zoom and home stay, the rest fold into a menu.
  const shown = compact ? tools.slice(0, COMPACT_SHOWN) : tools;
  const folded = compact ? tools.slice(COMPACT_SHOWN) : [];
  return (
    <Paper
      shadow="sm"
      radius="md"
      p={4}
      pos="absolute"
      top={compact ? 8 : 12}
      left={compact ? 8 : 12}
      style={{ zIndex: 2 }}
      role="group"
      aria-label={t('viewer.tools.label')}
      data-testid="viewer-toolbar"
    >
      <Stack gap={2}>
        {shown.map(({ icon: toolIcon, ...tool }) => (
          <Tool key={tool.testId} compact={compact} {...tool}>
            {toolIcon}
          </Tool>
        ))}
        {folded.length > 0 && (
          <Menu shadow="md" position="right-start" withinPortal>
            <Menu.Target>
              <Tooltip label={t('viewer.tools.more')} position="right" withArrow>
                <ActionIcon
                  variant="subtle"
                  color="dark"
                  size="md"
                  aria-label={t('viewer.tools.more')}
                  data-testid="tool-more"
                >
                  <IconDotsVertical size={icon} />
                </ActionIcon>
              </Tooltip>
            </Menu.Target>
            <Menu.Dropdown>
              {folded.map((tool) => (
                <Menu.Item
                  key={tool.testId}
                  leftSection={tool.icon}
                  rightSection={tool.keyHint}
                  onClick={tool.onClick}
                  disabled={tool.disabled || tool.loading}
                  color={tool.active ? 'violet' : undefined}
                  data-testid={tool.testId}
                >
                  {tool.label}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
        )}
      </Stack>
    </Paper>
  );
}
