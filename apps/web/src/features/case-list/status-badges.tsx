import { Badge, Group, Tooltip, type BadgeProps } from '@mantine/core';
import type { ImageStatus } from '@pathology/contract';
import { useTranslation } from 'react-i18next';
import { viewableWhileConverting, type ConvertingImage } from './viewable-while-converting.ts';

/** Part 1 §2: uploaded yellow, processing orange, process_failed red; the other non-available states grey/red. */
export const STATUS_COLORS: Record<ImageStatus, string> = {
  reserved: 'gray',
  uploaded: 'yellow',
  processing: 'orange',
  available: 'teal',
  process_failed: 'red',
  deleting: 'gray',
  upload_failed: 'red',
};

/**
 * The counters' filled colours: the statuses' own, with the shade that reads at WCAG AA (4.5:1) under its text —
 * dark text on yellow and orange (autoContrast), white on the darkest red and a dark grey.
 */
const COUNTER_COLORS: Record<ImageStatus, string> = {
  ...STATUS_COLORS,
  reserved: 'gray.7',
  deleting: 'gray.7',
  process_failed: 'red.9',
  upload_failed: 'red.9',
};

const COUNTED: readonly ImageStatus[] = [
  'uploaded',
  'processing',
  'process_failed',
  'upload_failed',
  'reserved',
  'deleting',
];

/** 11 px text: Mantine's smaller badges set 9 or 10 px, too small to read in a dense table. */
const BADGE_SIZE = 'md';

export function ImageStatusBadge({ status }: { status: ImageStatus }) {
  const { t } = useTranslation();
  return (
    <Badge
      size={BADGE_SIZE}
      variant="light"
      color={STATUS_COLORS[status]}
      radius="sm"
      data-testid={`image-status-${status}`}
    >
      {t(`caseList.imageStatus.${status}`)}
    </Badge>
  );
}

/**
 * "Viewable — building pyramid N %" (or "— pyramid queued" before its conversion starts) for an image served from
 * its original while its pyramid is built.
 */
export function ViewableWhileConvertingBadge({
  image,
  size = BADGE_SIZE,
  ...rest
}: {
  image: Pick<ConvertingImage, 'status' | 'conversionProgress'>;
  size?: 'xs' | 'sm' | 'md';
} & Omit<BadgeProps, 'children' | 'size'>) {
  const { t } = useTranslation();
  return (
    <Badge
      size={size}
      variant="light"
      color="violet"
      c="violet.9"
      bg="violet.0"
      radius="sm"
      tt="none"
      data-testid="image-viewable-converting"
      {...rest}
    >
      {image.status === 'uploaded'
        ? t('caseList.imageStatus.viewableQueued')
        : t('caseList.imageStatus.viewableBuilding', { percent: image.conversionProgress ?? 0 })}
    </Badge>
  );
}

/**
 * The row's per-status image counters: the states that need attention, else how many images are ready. Images
 * viewable while they convert are not counted as queued or processing: they show as viewable, with the progress of
 * the least advanced.
 */
export function StatusCounters({
  counts,
  images,
}: {
  counts: Partial<Record<ImageStatus, number>>;
  images: readonly ConvertingImage[];
}) {
  const { t } = useTranslation();
  const converting = images.filter(viewableWhileConverting);
  const adjusted = { ...counts };
  for (const image of converting) adjusted[image.status] = Math.max(0, (adjusted[image.status] ?? 0) - 1);
  const shown = COUNTED.filter((status) => (adjusted[status] ?? 0) > 0);
  const ready = counts.available ?? 0;
  const slowest = converting.reduce<ConvertingImage | undefined>((least, image) => {
    if (least == null) return image;
    if (image.status === 'uploaded' && least.status !== 'uploaded') return image;
    if (least.status === 'uploaded') return least;
    return (image.conversionProgress ?? 0) < (least.conversionProgress ?? 0) ? image : least;
  }, undefined);
  const viewable = slowest && (
    <Tooltip label={t('caseList.imageStatus.viewableCount', { count: converting.length })} openDelay={300}>
      <ViewableWhileConvertingBadge image={slowest} />
    </Tooltip>
  );
  if (shown.length === 0 && ready === 0 && !viewable) return null;
  if (shown.length === 0) {
    return (
      <Group gap={4} wrap="nowrap">
        {viewable}
        {ready > 0 && (
          <Tooltip label={t('caseList.imageStatus.available')} openDelay={300}>
            {/* The darkest teal on the lightest: the light variant's own pair reads at 4.3:1, under WCAG AA's 4.5:1. */}
            <Badge
              size={BADGE_SIZE}
              variant="light"
              color={STATUS_COLORS.available}
              c="teal.9"
              bg="teal.0"
              radius="sm"
              data-testid="status-count-available"
            >
              {t('caseList.imageStatus.readyCount', { count: ready })}
            </Badge>
          </Tooltip>
        )}
      </Group>
    );
  }
  return (
    <Group gap={4} wrap="nowrap">
      {viewable}
      {shown.map((status) => (
        <Tooltip key={status} label={t(`caseList.imageStatus.${status}`)} openDelay={300}>
          <Badge
            size={BADGE_SIZE}
            circle={false}
            variant="filled"
            color={COUNTER_COLORS[status]}
            autoContrast
            radius="sm"
            data-testid={`status-count-${status}`}
          >
            {adjusted[status]}
          </Badge>
        </Tooltip>
      ))}
    </Group>
  );
}
