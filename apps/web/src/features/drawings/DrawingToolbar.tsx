import {
  ActionIcon,
  Button,
  ColorSwatch,
  Divider,
  Group,
  Menu,
  Paper,
  Popover,
  SegmentedControl,
  Select,
  Switch,
  Text,
  Tooltip,
} from '@mantine/core';
import { DRAWING_SHAPES, DRAWING_VISIBILITY_FILTERS } from '@pathology/contract';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import {
  IconArrowBackUp,
  IconArrowForwardUp,
  IconDeviceFloppy,
  IconDots,
  IconDownload,
  IconEye,
  IconSettings,
  IconTrash,
} from '@tabler/icons-react';
import type { DrawingTool } from './drawing-gestures.ts';
import { TOOL_KEYS } from './drawing-shortcuts.ts';
import { DrawingHelp } from './DrawingHelp.tsx';
import { IconButton, ShapeMenu, TOOL_ICONS } from './DrawingToolbarParts.tsx';
import type { DrawingLayer } from './useDrawingLayer.ts';
import { useDownloadDrawings } from './useDownloadDrawings.ts';

export const LINE_COLORS = [
  '#868e96',
  '#fa5252',
  '#fd7e14',
  '#fab005',
  '#40c057',
  '#15aabf',
  '#228be6',
  '#7950f2',
  '#e64980',
  '#000000',
  '#ffffff',
] as const;
const LINE_WIDTHS = [1, 2, 3, 5, 8];

/** The drawing tools over the slide: tools, line style, undo and redo, save, what to show, the visibility filter. */
interface DrawingToolbarProps {
  layer: DrawingLayer;
  canCreate: boolean;
  /** The image's drawings may be downloaded (canDownloadDrawings, which needs the group's flag). */
  canDownload: boolean;
  imageId: string;
  /**
   * One row (a comparison pane): the select tool, the shapes in one menu, undo and redo, save, and the rest behind
   * a "more" button, so the tools never wrap over a quarter-screen slide.
   */
  compact?: boolean;
}

export function DrawingToolbar({ layer, canCreate, canDownload, imageId, compact = false }: DrawingToolbarProps) {
  const { t } = useTranslation();
  const downloads = useDownloadDrawings();
  const { preferences, setPreferences } = layer;
  const newVisibilityLabel = useId();
  const toolButton = (tool: DrawingTool) => (
    <IconButton
      key={tool}
      label={`${t(`drawings.tools.${tool}`)} (${TOOL_KEYS[tool]})`}
      active={layer.tool === tool}
      onClick={() => layer.setTool(tool)}
      testId={`drawing-tool-${tool}`}
    >
      {TOOL_ICONS[tool]}
    </IconButton>
  );

  // Each part once, laid out in one wrapping block or, compact, in one row with the rest behind "more".
  const lineStyle = canCreate && (
    <>
      <Menu shadow="md" withinPortal={!compact}>
        <Menu.Target>
          <Tooltip label={t('drawings.lineColor')} withArrow>
            <ActionIcon variant="subtle" color="dark" aria-label={t('drawings.lineColor')} data-testid="drawing-color">
              <ColorSwatch color={preferences.lineColor} size={16} />
            </ActionIcon>
          </Tooltip>
        </Menu.Target>
        <Menu.Dropdown>
          <Group gap={4} p={4} maw={180}>
            {LINE_COLORS.map((color) => (
              <Tooltip key={color} label={t(`drawings.colors.${color}`)} withArrow>
                <ColorSwatch
                  component="button"
                  color={color}
                  size={24}
                  aria-label={t(`drawings.colors.${color}`)}
                  onClick={() => {
                    setPreferences({ ...preferences, lineColor: color });
                    if (layer.selected?.editable)
                      layer.updateSelected({ style: { ...layer.selected.style, lineColor: color } });
                  }}
                  style={{
                    cursor: 'pointer',
                    outline: preferences.lineColor === color ? '2px solid var(--mantine-color-violet-6)' : undefined,
                  }}
                />
              </Tooltip>
            ))}
          </Group>
        </Menu.Dropdown>
      </Menu>
      <Select
        aria-label={t('drawings.lineWidth')}
        size="xs"
        w={64}
        data={LINE_WIDTHS.map((width) => ({ value: String(width), label: `${width}px` }))}
        value={String(preferences.lineWidth)}
        allowDeselect={false}
        comboboxProps={{ withinPortal: !compact }}
        onChange={(value) => {
          const lineWidth = Number(value);
          setPreferences({ ...preferences, lineWidth });
          if (layer.selected?.editable) layer.updateSelected({ style: { ...layer.selected.style, lineWidth } });
        }}
        data-testid="drawing-line-width"
      />
    </>
  );
  const editing = (
    <>
      <IconButton
        label={`${t('drawings.undo')} (Ctrl+Z)`}
        onClick={layer.undo}
        disabled={!layer.canUndo}
        testId="drawing-undo"
      >
        <IconArrowBackUp size={18} />
      </IconButton>
      <IconButton
        label={`${t('drawings.redo')} (Ctrl+Y)`}
        onClick={layer.redo}
        disabled={!layer.canRedo}
        testId="drawing-redo"
      >
        <IconArrowForwardUp size={18} />
      </IconButton>
    </>
  );
  const deleting = (
    <IconButton
      label={`${t('drawings.delete')} (Delete)`}
      onClick={layer.deleteSelected}
      disabled={!layer.selected?.editable}
      testId="drawing-delete"
    >
      <IconTrash size={18} />
    </IconButton>
  );
  const saveLabel =
    layer.unsavedCount > 0 ? t('drawings.saveCount', { count: layer.unsavedCount }) : t('drawings.save');
  const saving =
    !preferences.autoSave &&
    (compact ? (
      <Tooltip label={`${saveLabel} (Ctrl+S)`} withArrow>
        <ActionIcon
          variant={layer.unsavedCount > 0 ? 'filled' : 'subtle'}
          color={layer.unsavedCount > 0 ? 'violet' : 'dark'}
          aria-label={saveLabel}
          disabled={layer.unsavedCount === 0}
          loading={layer.saving}
          onClick={layer.save}
          data-testid="drawing-save"
        >
          <IconDeviceFloppy size={18} />
        </ActionIcon>
      </Tooltip>
    ) : (
      <Button
        size="compact-sm"
        variant={layer.unsavedCount > 0 ? 'filled' : 'default'}
        leftSection={<IconDeviceFloppy size={16} />}
        disabled={layer.unsavedCount === 0}
        loading={layer.saving}
        onClick={layer.save}
        data-testid="drawing-save"
      >
        {saveLabel}
      </Button>
    ));
  const showing = (
    <>
      <Menu shadow="md" closeOnItemClick={false} withinPortal={!compact}>
        <Menu.Target>
          <Tooltip label={t('drawings.show.label')} withArrow>
            <ActionIcon
              variant="subtle"
              color="dark"
              aria-label={t('drawings.show.label')}
              data-testid="drawing-show-menu"
            >
              <IconEye size={18} />
            </ActionIcon>
          </Tooltip>
        </Menu.Target>
        <Menu.Dropdown p="xs">
          <Switch
            mb={6}
            label={t('drawings.show.drawings')}
            checked={preferences.showDrawing}
            onChange={(event) => setPreferences({ ...preferences, showDrawing: event.currentTarget.checked })}
            data-testid="drawing-show-drawings"
          />
          <Switch
            mb={6}
            label={t('drawings.show.titles')}
            checked={preferences.showTitle}
            onChange={(event) => setPreferences({ ...preferences, showTitle: event.currentTarget.checked })}
            data-testid="drawing-show-titles"
          />
          <Switch
            label={t('drawings.show.measurements')}
            checked={preferences.showMeasurement}
            onChange={(event) => setPreferences({ ...preferences, showMeasurement: event.currentTarget.checked })}
            data-testid="drawing-show-measurements"
          />
        </Menu.Dropdown>
      </Menu>
      {canCreate && (
        <Menu shadow="md" closeOnItemClick={false} withinPortal={!compact}>
          <Menu.Target>
            <Tooltip label={t('drawings.options.label')} withArrow>
              <ActionIcon
                variant="subtle"
                color="dark"
                aria-label={t('drawings.options.label')}
                data-testid="drawing-options"
              >
                <IconSettings size={18} />
              </ActionIcon>
            </Tooltip>
          </Menu.Target>
          <Menu.Dropdown p="xs">
            <Switch
              mb={8}
              label={t('drawings.options.autoSave')}
              checked={preferences.autoSave}
              onChange={(event) => setPreferences({ ...preferences, autoSave: event.currentTarget.checked })}
              data-testid="drawing-auto-save"
            />
            <Switch
              mb={8}
              label={t('drawings.options.autoFillTitle')}
              checked={preferences.autoFillTitle}
              onChange={(event) => setPreferences({ ...preferences, autoFillTitle: event.currentTarget.checked })}
              data-testid="drawing-auto-title"
            />
            <Text size="xs" fw={500} mb={4} id={newVisibilityLabel}>
              {t('drawings.options.autoSaveVisibility')}
            </Text>
            <SegmentedControl
              size="xs"
              aria-labelledby={newVisibilityLabel}
              value={preferences.autoSaveVisibility}
              onChange={(value) => setPreferences({ ...preferences, autoSaveVisibility: value })}
              data={[
                { value: 'public', label: t('drawings.visibility.public') },
                { value: 'private', label: t('drawings.visibility.private') },
              ]}
              data-testid="drawing-new-visibility"
            />
          </Menu.Dropdown>
        </Menu>
      )}
      <SegmentedControl
        size="xs"
        aria-label={t('drawings.visibility.filter')}
        value={layer.filter}
        onChange={(value) => layer.setFilter(value)}
        data={DRAWING_VISIBILITY_FILTERS.map((filter) => ({
          value: filter,
          label: t(`drawings.visibility.${filter}`),
        }))}
        data-testid="drawing-visibility-filter"
      />
      {canDownload && (
        <IconButton
          label={t('drawings.download.button')}
          onClick={() => downloads.download([imageId])}
          disabled={downloads.busy}
          testId="drawing-download"
        >
          <IconDownload size={18} />
        </IconButton>
      )}
      <DrawingHelp withinPortal={!compact} />
    </>
  );

  return (
    <Paper
      shadow="sm"
      radius="md"
      p={4}
      style={{ pointerEvents: 'auto', alignSelf: 'flex-start' }}
      role="toolbar"
      aria-label={t('drawings.toolbar')}
      data-testid="drawing-toolbar"
      data-compact={compact}
    >
      {compact ? (
        <Group gap={2} wrap="nowrap">
          {toolButton('select')}
          {canCreate && <ShapeMenu tool={layer.tool} onTool={layer.setTool} />}
          {editing}
          {saving}
          <Popover shadow="md" withArrow position="bottom-start">
            <Popover.Target>
              <Tooltip label={t('drawings.more')} withArrow>
                <ActionIcon variant="subtle" color="dark" aria-label={t('drawings.more')} data-testid="drawing-more">
                  <IconDots size={18} />
                </ActionIcon>
              </Tooltip>
            </Popover.Target>
            <Popover.Dropdown p={4} maw={320} data-testid="drawing-more-dropdown">
              <Group gap={2} wrap="wrap">
                {lineStyle}
                {deleting}
                <Divider orientation="vertical" mx={2} />
                {showing}
              </Group>
            </Popover.Dropdown>
          </Popover>
        </Group>
      ) : (
        <Group gap={2} wrap="wrap">
          {toolButton('select')}
          {canCreate && DRAWING_SHAPES.map(toolButton)}
          {canCreate && <Divider orientation="vertical" mx={2} />}
          {lineStyle}
          <Divider orientation="vertical" mx={2} />
          {editing}
          {deleting}
          {saving}
          <Divider orientation="vertical" mx={2} />
          {showing}
        </Group>
      )}
    </Paper>
  );
}
