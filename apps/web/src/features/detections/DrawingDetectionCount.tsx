import { ColorSwatch, Group, Loader, Stack, Text } from '@mantine/core';
import type { DrawingGeometry } from '@pathology/contract';
import { useTranslation } from 'react-i18next';
import { useDetectionSummary, useDrawingDetectionCount } from './detections.queries.ts';

/** Geometries with an inside to count in (rectangles and closed freehand shapes are polygons). */
const AREAS: readonly DrawingGeometry['type'][] = ['Polygon', 'Ellipse'];

interface DrawingDetectionCountProps {
  imageId: string;
  layerId: string;
  drawingId: string;
  geometryType: DrawingGeometry['type'];
  /** Changes when the drawing moves or is reshaped, so the count is asked for again. */
  updatedAt: string;
}

/** In a selected drawing's card: how many detections of each class lie inside it, and their share. */
export function DrawingDetectionCount(props: DrawingDetectionCountProps) {
  const summary = useDetectionSummary(props.imageId, props.layerId).data;
  if (!summary || summary.total === 0 || !AREAS.includes(props.geometryType)) return null;
  return <Counts {...props} version={`${summary.version}@${props.updatedAt}`} />;
}

function Counts({ imageId, layerId, drawingId, version }: DrawingDetectionCountProps & { version: string }) {
  const { t, i18n } = useTranslation();
  const count = useDrawingDetectionCount(imageId, layerId, drawingId, version);
  if (count.isError) return null;
  if (!count.data) {
    return (
      <Group gap={6}>
        <Loader size="xs" />
        <Text size="xs">{t('detections.insideLoading')}</Text>
      </Group>
    );
  }
  const { total, classes } = count.data;
  return (
    <Stack gap={2} data-testid="drawing-detection-count">
      <Text size="sm" fw={600} data-testid="drawing-detection-total" data-total={total}>
        {t('detections.inside', { formatted: total.toLocaleString(i18n.language) })}
      </Text>
      {classes
        .filter((item) => item.count > 0)
        .map((item) => (
          <Group key={item.index} justify="space-between" wrap="nowrap" gap={8}>
            <Group gap={6} wrap="nowrap">
              <ColorSwatch color={item.color} size={10} />
              <Text size="xs">{item.name}</Text>
            </Group>
            <Text size="xs" data-testid={`drawing-detection-class-${item.index}`} data-count={item.count}>
              {item.count.toLocaleString(i18n.language)} ({(item.share * 100).toFixed(1)}%)
            </Text>
          </Group>
        ))}
    </Stack>
  );
}
