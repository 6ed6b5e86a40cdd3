import { Alert, Group, Paper, Progress, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { UploadItemRow } from '../uploads/UploadItemRow.tsx';
import type { UploadItem } from '../uploads/upload-types.ts';
import { overallProgress } from './bulk-progress.ts';

/** The batch's files during and after the upload: overall progress, then each file with retry. */
export function BulkProgressList({ items, done }: { items: readonly UploadItem[]; done: boolean }) {
  const { t } = useTranslation();
  const uploaded = items.filter((item) => item.status === 'uploaded').length;
  const failed = items.filter((item) => item.status === 'upload_failed').length;
  const overall = overallProgress(items);
  return (
    <Stack gap="sm" data-testid="bulk-progress">
      {done && (
        <Alert color={failed > 0 ? 'yellow' : 'teal'} variant="light" data-testid="bulk-done">
          {t('bulkUpload.done', { uploaded, failed })}
        </Alert>
      )}
      <Group justify="space-between">
        <Text size="sm">{t('uploads.dialog.uploadedCount', { done: uploaded, total: items.length })}</Text>
        <Text size="sm" c="dimmed">
          {Math.round(overall * 100)}%
        </Text>
      </Group>
      <Progress value={overall * 100} size="sm" aria-label={t('uploads.dialog.overallProgress')} />
      <Paper withBorder radius="md" p="sm">
        <Stack gap="sm" aria-live="polite">
          {items.map((item) => (
            <UploadItemRow key={item.id} item={item} showCase />
          ))}
        </Stack>
      </Paper>
    </Stack>
  );
}
