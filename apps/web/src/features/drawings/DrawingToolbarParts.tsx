import { ActionIcon, Kbd, Menu, Tooltip } from '@mantine/core';
import { DRAWING_SHAPES } from '@pathology/contract';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  IconArrowUpRight,
  IconLine,
  IconOvalVertical,
  IconPoint,
  IconPointer,
  IconPolygon,
  IconRectangle,
  IconRuler2,
  IconScribble,
} from '@tabler/icons-react';
import type { DrawingTool } from './drawing-gestures.ts';
import { TOOL_KEYS } from './drawing-shortcuts.ts';

export const TOOL_ICONS: Record<DrawingTool, ReactNode> = {
  select: <IconPointer size={18} />,
  freehand: <IconScribble size={18} />,
  line: <IconLine size={18} />,
  arrow: <IconArrowUpRight size={18} />,
  rectangle: <IconRectangle size={18} />,
  ellipse: <IconOvalVertical size={18} />,
  polygon: <IconPolygon size={18} />,
  point: <IconPoint size={18} />,
  ruler: <IconRuler2 size={18} />,
};

interface IconButtonProps {
  label: string;
  onClick: () => void;
  active?: boolean;
  disabled?: boolean;
  testId: string;
  children: ReactNode;
}

export function IconButton({ label, onClick, active, disabled, testId, children }: IconButtonProps) {
  return (
    <Tooltip label={label} withArrow>
      <ActionIcon
        variant={active ? 'filled' : 'subtle'}
        color={active ? 'violet' : 'dark'}
        size="md"
        aria-label={label}
        aria-pressed={active}
        onClick={onClick}
        disabled={disabled}
        data-testid={testId}
      >
        {children}
      </ActionIcon>
    </Tooltip>
  );
}

interface ShapeMenuProps {
  tool: DrawingTool;
  onTool: (tool: DrawingTool) => void;
}

/** The shape tools folded into one button (a comparison pane's one-row toolbar): it shows the shape in hand. */
export function ShapeMenu({ tool, onTool }: ShapeMenuProps) {
  const { t } = useTranslation();
  const shape = tool === 'select' ? undefined : tool;
  const label = t('drawings.shapes');
  return (
    <Menu shadow="md" position="bottom-start" withinPortal>
      <Menu.Target>
        <Tooltip label={shape ? `${label}: ${t(`drawings.tools.${shape}`)}` : label} withArrow>
          <ActionIcon
            variant={shape ? 'filled' : 'subtle'}
            color={shape ? 'violet' : 'dark'}
            size="md"
            aria-label={label}
            data-testid="drawing-shape-menu"
          >
            {TOOL_ICONS[shape ?? 'freehand']}
          </ActionIcon>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown>
        {DRAWING_SHAPES.map((candidate) => (
          <Menu.Item
            key={candidate}
            leftSection={TOOL_ICONS[candidate]}
            rightSection={<Kbd size="xs">{TOOL_KEYS[candidate]}</Kbd>}
            onClick={() => onTool(candidate)}
            color={candidate === shape ? 'violet' : undefined}
            aria-current={candidate === shape ? 'true' : undefined}
            data-testid={`drawing-tool-${candidate}`}
          >
            {t(`drawings.tools.${candidate}`)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
