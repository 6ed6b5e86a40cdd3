import { Button, ColorSwatch, Group, Paper, Progress, Slider, Stack, Switch, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { findAiModel, negativeLabelOf, PredictionSchema, type Case, type Image } from '@pathology/contract';
import { IconTargetArrow } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import OpenSeadragon from 'openseadragon';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { Abbreviated } from '../../components/Abbreviated.tsx';
import { useCatalogueName } from '../../i18n/catalogue-names.ts';
import { errorText } from '../../i18n/error-text.ts';
import { AiAgreementDialog } from './AiAgreement.tsx';
import { overlayCells, thresholdOf } from './overlay-cells.ts';
import { PredictionOverlay } from './prediction-overlay.ts';
import { inProgress, predictionQueryKeys, useAiModels, usePrediction } from './predictions.queries.ts';
import { useGroupAiConsent } from './useGroupAiConsent.ts';

interface PredictionLayerProps {
  viewer: OpenSeadragon.Viewer | null;
  ready: boolean;
  image: Image;
  caseItem: Case | undefined;
}

/**
 * The image's AI result over the slide (part 2 §2, §9): a grid coloured by label group above the
 * threshold, with its legend, threshold and opacity, and a walk through the strongest cells. While the
 * prediction runs its progress shows here; a failed one can be run again.
 */
export function PredictionLayer({ viewer, ready, image, caseItem }: PredictionLayerProps) {
  const { t } = useTranslation();
  const name = useCatalogueName();
  const queryClient = useQueryClient();
  const caps = caseItem?.userCapabilities;
  const consent = useGroupAiConsent(caseItem?.organizationId);
  const prediction = usePrediction(image.prediction?.id ?? null).data ?? image.prediction;
  const models = useAiModels();
  const installed = models.data?.find((model) => model.modelName === prediction?.modelName);
  const result = prediction?.status === 'completed' ? prediction.result : null;
  const [visible, setVisible] = useState(true);
  const [threshold, setThreshold] = useState<number | null>(null);
  const [opacity, setOpacity] = useState(0.45);
  const [hotspot, setHotspot] = useState(-1);
  const overlay = useRef<PredictionOverlay | null>(null);
  const shownThreshold = threshold ?? (result ? thresholdOf(result) : 50);
  const groups = installed?.labelGroups ?? [];
  const cells = useMemo(
    () => (result ? overlayCells(result, groups, shownThreshold) : []),
    [result, groups, shownThreshold],
  );
  const enabled = (caps?.canViewPrediction ?? false) && consent.aiEnabled;

  useEffect(() => {
    if (!viewer || !ready || !enabled) return undefined;
    overlay.current = new PredictionOverlay(viewer);
    return () => {
      overlay.current?.destroy();
      overlay.current = null;
    };
  }, [viewer, ready, enabled]);

  useEffect(() => {
    overlay.current?.set({
      cells,
      cellSize: result?.cellSize ?? 1,
      opacity,
      visible,
      focused: cells[hotspot] ?? null,
    });
  }, [cells, result, opacity, visible, hotspot, enabled, ready]);

  if (!enabled || !prediction) return consent.group ? <AiAgreementDialog group={consent.group} /> : null;

  const nextHotspot = () => {
    if (!viewer || !result || cells.length === 0) return;
    const next = (hotspot + 1) % cells.length;
    const cell = cells[next]!;
    const size = result.cellSize;
    const item = viewer.world.getItemAt(0);
    if (item)
      viewer.viewport.fitBounds(
        item.imageToViewportRectangle(
          new OpenSeadragon.Rect((cell.x - 1) * size, (cell.y - 1) * size, 3 * size, 3 * size),
        ),
      );
    setHotspot(next);
    setVisible(true);
  };

  const recover = async () => {
    try {
      await api.put(`/predictions/${encodeURIComponent(prediction.id)}/recover`, undefined, {
        schema: PredictionSchema,
      });
      await queryClient.invalidateQueries({ queryKey: predictionQueryKeys.prediction(prediction.id) });
    } catch (error) {
      notifications.show({ color: 'red', title: t('predictions.overlay.recoverFailed'), message: errorText(error, t) });
    }
  };

  const model = findAiModel(prediction.modelName);
  return (
    <>
      {consent.group && <AiAgreementDialog group={consent.group} />}
      <Paper
        shadow="sm"
        radius="md"
        p="sm"
        w={260}
        pos="absolute"
        // Bottom right above the navigator (a sixth of the viewer's height), clear of the drawing tools and the zoom indicator.
        bottom="calc(16% + 24px)"
        right={12}
        style={{ zIndex: 2 }}
        data-testid="prediction-panel"
        data-viewer-panel
        data-status={prediction.status}
      >
        <Stack gap={8}>
          <Group justify="space-between" wrap="nowrap">
            <Text size="sm" fw={600}>
              {t('predictions.overlay.title')}
            </Text>
            {result && (
              <Switch
                size="xs"
                checked={visible}
                onChange={(event) => setVisible(event.currentTarget.checked)}
                aria-label={t('predictions.overlay.show')}
                data-testid="prediction-toggle"
              />
            )}
          </Group>
          <Text size="xs" c="dimmed">
            {t('predictions.overlay.model', {
              model: name('models', prediction.modelName),
              version: result?.version ?? installed?.version ?? '—',
            })}
          </Text>
          {inProgress(prediction) && (
            <>
              <Text size="xs">{t('predictions.overlay.requested', prediction.progress)}</Text>
              <Progress
                value={prediction.progress.total > 0 ? (100 * prediction.progress.done) / prediction.progress.total : 0}
                animated
                aria-label={t('predictions.progress', prediction.progress)}
                data-testid="prediction-progress"
              />
            </>
          )}
          {prediction.status === 'failed' && (
            <>
              <Text size="xs" c="red">
                {t('predictions.overlay.failed', { message: prediction.errorMessage ?? '' })}
              </Text>
              {caps?.canRecoverPrediction && (
                <Button
                  size="compact-xs"
                  variant="light"
                  onClick={() => void recover()}
                  data-testid="prediction-recover"
                >
                  {t('predictions.overlay.recover')}
                </Button>
              )}
            </>
          )}
          {result && (
            <>
              <Text size="xs" c="dimmed">
                {t('predictions.overlay.considered', { count: result.numberOfConsideredCells })}
              </Text>
              <Stack gap={4} aria-label={t('predictions.overlay.legend')} data-testid="prediction-legend">
                {groups
                  .filter((group) => group.positive)
                  .map((group) => (
                    <Group key={group.name} gap={6} wrap="nowrap">
                      <ColorSwatch color={group.color} size={12} />
                      <Text size="xs">
                        <Abbreviated text={name('aiLabels', group.displayName)} />
                      </Text>
                    </Group>
                  ))}
                <Group gap={6} wrap="nowrap">
                  <ColorSwatch color="transparent" size={12} withShadow />
                  <Text size="xs">
                    <Abbreviated text={name('aiLabels', negativeLabelOf(model ?? {}))} />
                  </Text>
                </Group>
              </Stack>
              <Text size="xs" id="prediction-threshold">
                {t('predictions.overlay.threshold')}: {shownThreshold}%
              </Text>
              <Slider
                size="xs"
                min={0}
                max={100}
                value={shownThreshold}
                onChange={setThreshold}
                // The thumb is what a screen reader lands on: it carries the name, and the value as a percentage.
                thumbLabel={t('predictions.overlay.threshold')}
                thumbValueText={(value) => `${value}%`}
                aria-labelledby="prediction-threshold"
                data-testid="prediction-threshold"
              />
              <Text size="xs" id="prediction-opacity">
                {t('predictions.overlay.opacity')}
              </Text>
              <Slider
                size="xs"
                min={0.1}
                max={1}
                step={0.05}
                value={opacity}
                onChange={setOpacity}
                label={(value) => `${Math.round(value * 100)}%`}
                thumbLabel={t('predictions.overlay.opacity')}
                thumbValueText={(value) => `${Math.round(value * 100)}%`}
                aria-labelledby="prediction-opacity"
              />
              {cells.length === 0 ? (
                <Text size="xs" c="dimmed">
                  {t('predictions.overlay.noFindings')}
                </Text>
              ) : (
                // Wraps: the Japanese button and counter do not both fit the panel's width on one line.
                <Group justify="space-between" gap={6} wrap="wrap">
                  <Button
                    size="compact-xs"
                    variant="light"
                    leftSection={<IconTargetArrow size={14} />}
                    onClick={nextHotspot}
                    data-testid="prediction-next-hotspot"
                  >
                    {t('predictions.overlay.nextHotspot')}
                  </Button>
                  {hotspot >= 0 && (
                    <Text size="xs" c="dimmed" data-testid="prediction-hotspot">
                      {t('predictions.overlay.hotspotOf', { index: hotspot + 1, count: cells.length })}
                    </Text>
                  )}
                </Group>
              )}
            </>
          )}
        </Stack>
      </Paper>
    </>
  );
}
