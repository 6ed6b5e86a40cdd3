import { ActionIcon, Paper, Stack, Tooltip } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  IconCamera,
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
}

interface ToolProps {
  label: string;
  keyHint?: string;
  onClick: () => void;
  disabled?: boolean;
  active?: boolean;
  loading?: boolean;
  testId: string;
  children: ReactNode;
}

function Tool({ label, keyHint, onClick, disabled, active, loading, testId, children }: ToolProps) {
  return (
    <Tooltip label={keyHint ? `${label} (${keyHint})` : label} position="right" withArrow>
      <ActionIcon
        variant={active ? 'filled' : 'subtle'}
        color={active ? 'violet' : 'dark'}
        size="lg"
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
  const { disabled } = props;
  return (
    <Paper
      shadow="sm"
      radius="md"
      p={4}
      pos="absolute"
      top={12}
      left={12}
      style={{ zIndex: 2 }}
      role="group"
      aria-label={t('viewer.tools.label')}
      data-testid="viewer-toolbar"
    >
      <Stack gap={2}>
        <Tool
          label={t('viewer.tools.zoomIn')}
          keyHint="+"
          onClick={props.onZoomIn}
          disabled={disabled}
          testId="tool-zoom-in"
        >
          <IconZoomIn size={20} />
        </Tool>
        <Tool
          label={t('viewer.tools.zoomOut')}
          keyHint="-"
          onClick={props.onZoomOut}
          disabled={disabled}
          testId="tool-zoom-out"
        >
          <IconZoomOut size={20} />
        </Tool>
        <Tool label={t('viewer.tools.home')} keyHint="0" onClick={props.onHome} disabled={disabled} testId="tool-home">
          <IconHome size={20} />
        </Tool>
        <Tool
          label={t('viewer.tools.rotate')}
          keyHint="R"
          onClick={props.onRotate}
          disabled={disabled}
          testId="tool-rotate"
        >
          <IconRotateClockwise size={20} />
        </Tool>
        <Tool
          label={props.expanded ? t('viewer.tools.exitFullscreen') : t('viewer.tools.fullscreen')}
          keyHint="F"
          onClick={props.onFullscreen}
          active={props.expanded}
          testId="tool-fullscreen"
        >
          {props.expanded ? <IconMinimize size={20} /> : <IconMaximize size={20} />}
        </Tool>
        {props.onSnapshot && (
          <Tool
            label={t('viewer.tools.snapshot')}
            keyHint="S"
            onClick={props.onSnapshot}
            disabled={disabled}
            loading={props.snapshotBusy}
            testId="tool-snapshot"
          >
            <IconCamera size={20} />
          </Tool>
        )}
        <Tool
          label={t('viewer.tools.colour')}
          onClick={props.onColour}
          active={props.colourOpen}
          disabled={disabled}
          testId="tool-colour"
        >
          <IconPalette size={20} />
        </Tool>
      </Stack>
    </Paper>
  );
}
