import { ActionIcon, Group, Paper, SegmentedControl, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import {
  MAX_DRAWING_TITLE_LENGTH,
  measureDrawing,
  measurementText,
  micronsPerPixelXY,
  type Image,
} from '@pathology/contract';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { IconTrash, IconX } from '@tabler/icons-react';
import { DrawingDetectionCount } from '../detections/DrawingDetectionCount.tsx';
import type { DrawingLayer } from './useDrawingLayer.ts';

/** The selected drawing: its title, visibility, measurement and author, editable where the user may. */
export function DrawingDetails({ layer, image }: { layer: DrawingLayer; image: Image }) {
  const { t } = useTranslation();
  const drawing = layer.selected;
  const [title, setTitle] = useState(drawing?.title ?? '');
  useEffect(() => setTitle(drawing?.title ?? ''), [drawing?.id, drawing?.title]);
  if (!drawing) return null;

  const measurement =
    drawing.shapeType === 'point'
      ? ''
      : measurementText(measureDrawing(drawing.geometry, micronsPerPixelXY(image.resolution)));
  const commitTitle = () => {
    if (title.trim() !== drawing.title) layer.updateSelected({ title: title.trim() });
  };

  return (
    <Paper
      shadow="sm"
      radius="md"
      p="xs"
      w={280}
      style={{ pointerEvents: 'auto' }}
      data-testid="drawing-details"
      aria-label={t(`drawings.shapeNames.${drawing.shapeType}`)}
    >
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap">
          <Text fw={600} size="sm">
            {t(`drawings.shapeNames.${drawing.shapeType}`)}
          </Text>
          <Group gap={2}>
            {drawing.editable && (
              <Tooltip label={t('drawings.delete')} withArrow>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={t('drawings.delete')}
                  onClick={layer.deleteSelected}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Tooltip>
            )}
            <ActionIcon variant="subtle" color="gray" aria-label="Close" onClick={() => layer.select(null)}>
              <IconX size={16} />
            </ActionIcon>
          </Group>
        </Group>
        {drawing.editable ? (
          <>
            <TextInput
              size="xs"
              label={t('drawings.details.title')}
              placeholder={t('drawings.details.titlePlaceholder')}
              value={title}
              maxLength={MAX_DRAWING_TITLE_LENGTH}
              onChange={(event) => setTitle(event.currentTarget.value)}
              onBlur={commitTitle}
              onKeyDown={(event) => {
                if (event.key === 'Enter') commitTitle();
                // As outside the field: Escape closes the card, so it leaves the slide beside the shape free.
                if (event.key === 'Escape') {
                  commitTitle();
                  layer.select(null);
                }
              }}
              data-testid="drawing-title"
            />
            {drawing.authorAccountId === layer.accountId && (
              <SegmentedControl
                size="xs"
                aria-label={t('drawings.visibility.label')}
                value={drawing.visibility}
                onChange={(value) => layer.updateSelected({ visibility: value })}
                data={[
                  { value: 'public', label: t('drawings.visibility.public') },
                  { value: 'private', label: t('drawings.visibility.private') },
                ]}
                data-testid="drawing-visibility"
              />
            )}
          </>
        ) : (
          <>
            {drawing.title && <Text size="sm">{drawing.title}</Text>}
            <Text size="xs" c="dimmed">
              {t('drawings.details.readOnly')}
            </Text>
          </>
        )}
        {measurement && (
          <Text size="sm" data-testid="drawing-measurement">
            {measurement}
          </Text>
        )}
        <DrawingDetectionCount
          imageId={image.id}
          layerId={drawing.imageLayerId}
          drawingId={drawing.id}
          geometryType={drawing.geometry.type}
          updatedAt={drawing.updatedAt}
        />
        {drawing.authorName && (
          <Text size="xs" c="dimmed">
            {t('drawings.details.author', { name: drawing.authorName })}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
