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

const COUNTED: readonly ImageStatus[] = [
  'uploaded',
  'processing',
  'process_failed',
  'upload_failed',
  'reserved',
  'deleting',
];

export function ImageStatusBadge({ status }: { status: ImageStatus }) {
  const { t } = useTranslation();
  return (
    <Badge size="xs" variant="light" color={STATUS_COLORS[status]} radius="sm" data-testid={`image-status-${status}`}>
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
        <Badge
          size="xs"
          variant="light"
          color={STATUS_COLORS.available}
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
            size="xs"
            circle={false}
            variant="filled"
            color={STATUS_COLORS[status]}
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
