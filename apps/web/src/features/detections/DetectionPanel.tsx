import {
  ActionIcon,
  Button,
  ColorSwatch,
  FileButton,
  Group,
  Paper,
  Progress,
  Slider,
  Stack,
  Switch,
  Text,
} from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import type { DetectionImport, DetectionSummary } from '@pathology/contract';
import { IconChevronDown, IconChevronUp, IconDownload, IconRefresh, IconTrash, IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { errorText } from '../../i18n/error-text.ts';
import { fetchBinary, saveBlob } from '../case-images/fetch-binary.ts';
import type { DetectionStyle } from './detection-tiles.ts';
import {
  detectionsPath,
  retryDetectionImport,
  uploadDetectionFile,
  watchDetectionImport,
} from './detections.queries.ts';
import { importErrorText, importFailureText } from './import-error.ts';

/** The bar of an import: its upload first, then its job's bytes parsed, with the features read so far. */
interface ImportProgress {
  phase: 'upload' | 'import';
  fraction: number;
  features: number;
}

interface DetectionPanelProps {
  imageId: string;
  layerId: string;
  summary: DetectionSummary;
  style: DetectionStyle;
  onStyle: (style: DetectionStyle) => void;
  /** After an import or a deletion: the summary is read again. */
  onChanged: () => void;
  /** Starts folded even with detections (a comparison pane keeps its slide in view). */
  folded?: boolean;
}

/** The detections of the layer: classes with counts and toggles, opacities, import, export, the imports. */
export function DetectionPanel({
  imageId,
  layerId,
  summary,
  style,
  onStyle,
  onChanged,
  folded = false,
}: DetectionPanelProps) {
  const { t, i18n } = useTranslation();
  // Folded while the layer has none, so an empty panel does not cover the slide.
  const [open, setOpen] = useState(summary.total > 0 && !folded);
  const [progress, setProgress] = useState<ImportProgress | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  // A failed import that was not its file's fault: it may be tried again.
  const [stopped, setStopped] = useState<DetectionImport | null>(null);
  const number = (value: number) => value.toLocaleString(i18n.language);
  // The thumb carries the name and the value as shown: a screen reader would otherwise say "0.35".
  const percent = (fraction: number) => t('detections.percent', { percent: Math.round(fraction * 100) });

  /** Follows a queued import to its end: the bar while it runs, then the count or why it failed. */
  const follow = async (started: DetectionImport) => {
    const done = await watchDetectionImport(imageId, layerId, started.id, (state) =>
      setProgress({
        phase: 'import',
        fraction: state.bytesTotal > 0 ? state.bytesRead / state.bytesTotal : 0,
        features: state.features,
      }),
    );
    if (done.status === 'completed') {
      notifications.show({ color: 'teal', message: t('detections.imported', { formatted: number(done.features) }) });
      onChanged();
      return;
    }
    setProblem((done.error && importFailureText(done.error, t)) ?? t('detections.importStopped'));
    if (done.retryable) setStopped(done);
  };
  const run = async (start: () => Promise<DetectionImport>) => {
    setProblem(null);
    setStopped(null);
    try {
      await follow(await start());
    } catch (error) {
      setProblem(importErrorText(error, t));
    } finally {
      setProgress(null);
    }
  };
  const importFile = async (file: File | null) => {
    if (!file) return;
    setProgress({ phase: 'upload', fraction: 0, features: 0 });
    await run(() =>
      uploadDetectionFile(imageId, layerId, file, (fraction) =>
        setProgress({ phase: 'upload', fraction, features: 0 }),
      ),
    );
  };
  const retry = async (failed: DetectionImport) => {
    setProgress({ phase: 'import', fraction: 0, features: 0 });
    await run(() => retryDetectionImport(imageId, layerId, failed.id));
  };
  const exportFile = async () => {
    try {
      saveBlob(
        await fetchBinary(`${detectionsPath(imageId, layerId)}/export`, { timeout: false }),
        `detections.geojson`,
      );
    } catch (error) {
      notifications.show({ color: 'red', message: errorText(error, t) });
    }
  };
  const confirmDeleteSet = (set: { id: string; name: string }) =>
    modals.openConfirmModal({
      title: t('detections.deleteTitle'),
      centered: true,
      children: <Text size="sm">{t('detections.deleteConfirm', { name: set.name })}</Text>,
      labels: { confirm: t('detections.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'detection-set-delete-confirm' },
      onConfirm: () => void deleteSet(set.id),
    });
  const deleteSet = async (setId: string) => {
    try {
      await api.delete(`${detectionsPath(imageId, layerId)}/${encodeURIComponent(setId)}`);
      notifications.show({ color: 'teal', message: t('detections.deleted') });
      onChanged();
    } catch (error) {
      notifications.show({ color: 'red', message: errorText(error, t) });
    }
  };
  const toggle = (index: number, shown: boolean) =>
    onStyle({ ...style, hidden: shown ? style.hidden.filter((i) => i !== index) : [...style.hidden, index] });

  return (
    // Folded, only its title: a quarter-screen comparison pane keeps its slide in view.
    <Paper
      shadow="sm"
      radius="md"
      p={open ? 'sm' : 6}
      w={open ? 270 : undefined}
      maw="100%"
      data-testid="detection-panel"
      // The selected drawing's details card keeps off it (useDetailsPlacement).
      data-viewer-panel
      style={{ pointerEvents: 'auto' }}
    >
      <Stack gap={8}>
        <Group justify="space-between" wrap="nowrap">
          <Text size="sm" fw={600}>
            {t('detections.title')}
            {summary.total > 0 && (
              <Text span size="xs" c="dimmed" ml={6} data-testid="detection-total">
                {t('detections.total', { formatted: number(summary.total) })}
              </Text>
            )}
          </Text>
          <ActionIcon
            variant="subtle"
            color="gray"
            aria-label={t('detections.title')}
            aria-expanded={open}
            onClick={() => setOpen(!open)}
          >
            {open ? <IconChevronUp size={16} /> : <IconChevronDown size={16} />}
          </ActionIcon>
        </Group>
        {open && (
          <>
            {summary.total === 0 && (
              <Text size="xs" c="dimmed" data-testid="detection-empty">
                {t('detections.empty')}
                {summary.canImport && ` ${t('detections.fileFormat')}`}
              </Text>
            )}
            {summary.classes.map((item) => (
              <Group key={item.index} justify="space-between" wrap="nowrap" gap={6}>
                <Switch
                  size="xs"
                  checked={!style.hidden.includes(item.index)}
                  onChange={(event) => toggle(item.index, event.currentTarget.checked)}
                  aria-label={t('detections.showClass', { name: item.name })}
                  label={
                    <Group gap={6} wrap="nowrap">
                      <ColorSwatch color={item.color} size={12} />
                      <Text size="xs">{item.name}</Text>
                    </Group>
                  }
                />
                <Text size="xs" c="dimmed" data-testid={`detection-class-count-${item.index}`}>
                  {number(item.count)}
                </Text>
              </Group>
            ))}
            {summary.total > 0 && (
              <>
                <Text size="xs">{t('detections.fill')}</Text>
                <Slider
                  size="xs"
                  min={0}
                  max={1}
                  step={0.05}
                  value={style.fill}
                  onChangeEnd={(fill) => onStyle({ ...style, fill })}
                  thumbLabel={t('detections.fill')}
                  thumbValueText={percent}
                  label={percent}
                />
                <Text size="xs">{t('detections.outline')}</Text>
                <Slider
                  size="xs"
                  min={0}
                  max={1}
                  step={0.05}
                  value={style.outline}
                  onChangeEnd={(outline) => onStyle({ ...style, outline })}
                  thumbLabel={t('detections.outline')}
                  thumbValueText={percent}
                  label={percent}
                />
              </>
            )}
            {summary.sets.map((set) => (
              <Group key={set.id} justify="space-between" wrap="nowrap" gap={4}>
                <Text size="xs" c="dimmed" truncate>
                  {set.name} ({number(set.count)})
                </Text>
                {set.deletable && (
                  <ActionIcon
                    size="sm"
                    variant="subtle"
                    color="red"
                    aria-label={t('detections.deleteSet', { name: set.name })}
                    onClick={() => confirmDeleteSet(set)}
                  >
                    <IconTrash size={14} />
                  </ActionIcon>
                )}
              </Group>
            ))}
            {progress !== null && (
              <Stack gap={2} data-testid="detection-import-progress">
                <Text size="xs">
                  {t(progress.phase === 'upload' ? 'detections.uploading' : 'detections.importing', {
                    percent: Math.round(progress.fraction * 100),
                  })}
                </Text>
                <Progress
                  value={progress.fraction * 100}
                  size="sm"
                  animated
                  aria-label={t('detections.import')}
                  data-phase={progress.phase}
                />
                {progress.features > 0 && (
                  <Text size="xs" c="dimmed" data-testid="detection-import-features">
                    {t('detections.featuresRead', { formatted: number(progress.features) })}
                  </Text>
                )}
              </Stack>
            )}
            {problem && (
              <Text size="xs" c="red" role="alert" data-testid="detection-import-error">
                {t('detections.importFailed')}: {problem}
              </Text>
            )}
            {stopped && progress === null && (
              <Button
                size="xs"
                variant="light"
                color="orange"
                leftSection={<IconRefresh size={14} />}
                onClick={() => void retry(stopped)}
              >
                {t('detections.retry')}
              </Button>
            )}
            <Group gap={6}>
              {summary.canImport && (
                <FileButton
                  onChange={(file) => void importFile(file)}
                  accept=".geojson,.json,application/geo+json,application/json"
                >
                  {(props) => (
                    <Button
                      {...props}
                      size="xs"
                      variant="light"
                      leftSection={<IconUpload size={14} />}
                      disabled={progress !== null}
                    >
                      {t('detections.import')}
                    </Button>
                  )}
                </FileButton>
              )}
              {summary.canExport && summary.total > 0 && (
                <Button
                  size="xs"
                  variant="subtle"
                  leftSection={<IconDownload size={14} />}
                  onClick={() => void exportFile()}
                >
                  {t('detections.export')}
                </Button>
              )}
            </Group>
          </>
        )}
      </Stack>
    </Paper>
  );
}
