import { COLOR_SETTING_RANGES, DEFAULT_COLOR_SETTINGS, type ColorSettings } from '@pathology/contract';
import { Alert, Button, Group, Loader, Slider, Stack, Switch, Text } from '@mantine/core';
import type OpenSeadragon from 'openseadragon';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../i18n/error-text.ts';
import { isNeutral } from './colour-filter.ts';
import { formatSetting, SLIDERS, type SliderKey } from './colour-panel.ts';
import { PresetControls } from './PresetControls.tsx';
import { useColourEditor } from './useColourEditor.ts';

export interface ColourPanelProps {
  caseId: string;
  /** The case's owner group, whose presets are offered. */
  organizationId: string;
  /** The viewer to show the colour on; null while it is being created. */
  viewer: OpenSeadragon.Viewer | null;
}

/**
 * Colour settings of the viewer (part 2 §2, §3): sliders and invert, applied live to the slide,
 * saved for the caller and this case; the group's presets; preset management for administrators.
 */
export function ColourPanel({ caseId, organizationId, viewer }: ColourPanelProps) {
  const { t } = useTranslation();
  const editor = useColourEditor(caseId, viewer);
  const statusId = useId();
  const { settings } = editor;

  if (editor.load.isError && settings == null) {
    return (
      <Alert color="red" data-testid="colour-panel-error">
        {t('viewerColour.loadFailed', { message: errorText(editor.load.error, t) })}
      </Alert>
    );
  }
  if (settings == null) return <Loader size="sm" aria-label={t('viewerColour.panelLabel')} />;

  const set = <K extends keyof ColorSettings>(key: K, value: ColorSettings[K]) =>
    editor.change({ ...settings, [key]: value });

  return (
    <Stack gap="sm" role="group" aria-label={t('viewerColour.panelLabel')} data-testid="colour-panel">
      {/* The container (the viewer's colour drawer) carries the heading. */}
      {editor.source != null && (
        <Text size="xs" c="dimmed" data-testid="colour-source">
          {t(`viewerColour.source.${editor.source}`)}
        </Text>
      )}

      <PresetControls
        organizationId={organizationId}
        settings={settings}
        presetId={editor.presetId}
        onApply={(preset) => editor.change(preset)}
      />

      {SLIDERS.map((key) => (
        <ColourSlider key={key} name={key} value={settings[key]} onChange={(value) => set(key, value)} />
      ))}

      <Switch
        label={t('viewerColour.settings.invert')}
        checked={settings.invert === 1}
        onChange={(event) => set('invert', event.currentTarget.checked ? 1 : 0)}
        data-testid="colour-invert"
      />

      <Group justify="space-between" wrap="nowrap">
        <Button
          variant="default"
          size="xs"
          onClick={editor.reset}
          disabled={isNeutral(settings)}
          data-testid="colour-reset"
        >
          {t('viewerColour.reset')}
        </Button>
        <SaveStatus editor={editor} id={statusId} />
      </Group>
    </Stack>
  );
}

function ColourSlider({ name, value, onChange }: { name: SliderKey; value: number; onChange: (v: number) => void }) {
  const { t } = useTranslation();
  const labelId = useId();
  const range = COLOR_SETTING_RANGES[name];
  const label = t(`viewerColour.settings.${name}`);
  return (
    <div data-testid={`colour-${name}`}>
      <Group justify="space-between" gap={4}>
        <Text size="sm" id={labelId}>
          {label}
        </Text>
        <Text size="sm" c="dimmed" ff="monospace">
          {formatSetting(name, value)}
        </Text>
      </Group>
      <Slider
        min={range.min}
        max={range.max}
        step={range.step}
        value={value}
        onChange={onChange}
        // Arrow keys move one step; the thumb carries the name for screen readers.
        thumbLabel={label}
        label={(v) => formatSetting(name, v)}
        marks={[{ value: DEFAULT_COLOR_SETTINGS[name] }]}
        aria-labelledby={labelId}
        size="sm"
      />
    </div>
  );
}

function SaveStatus({ editor, id }: { editor: ReturnType<typeof useColourEditor>; id: string }) {
  const { t } = useTranslation();
  const { save } = editor;
  return (
    <Text size="xs" c={save.isError ? 'red' : 'dimmed'} id={id} aria-live="polite" data-testid="colour-save-status">
      {save.isPending && t('viewerColour.status.saving')}
      {save.isSuccess && t('viewerColour.status.saved')}
      {save.isError && (
        <>
          {t('viewerColour.status.failed', { message: errorText(save.error, t) })}{' '}
          <Button variant="subtle" size="compact-xs" onClick={editor.retrySave}>
            {t('viewerColour.status.retry')}
          </Button>
        </>
      )}
    </Text>
  );
}
