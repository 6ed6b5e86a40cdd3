import { Badge, Group, Tooltip } from '@mantine/core';
import type { ImageStatus } from '@pathology/contract';
import { useTranslation } from 'react-i18next';

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

/** The row's per-status image counters: the states that need attention, else how many images are ready. */
export function StatusCounters({ counts }: { counts: Partial<Record<ImageStatus, number>> }) {
  const { t } = useTranslation();
  const shown = COUNTED.filter((status) => (counts[status] ?? 0) > 0);
  const ready = counts.available ?? 0;
  if (shown.length === 0 && ready === 0) return null;
  if (shown.length === 0) {
    return (
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
    );
  }
  return (
    <Group gap={4} wrap="nowrap">
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
            {counts[status]}
          </Badge>
        </Tooltip>
      ))}
    </Group>
  );
}
