import { ActionIcon, Anchor, Badge, Button, Group, Progress, Stack, Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { IconEye, IconRefresh, IconX } from '@tabler/icons-react';
import { formatBytes } from './file-types.ts';
import { translateUploadError, uploadRetryable } from './upload-error-text.ts';
import { uploadedSlidePath } from './uploaded-slide.ts';
import { uploadEngine } from './upload-service.ts';
import type { UploadItem, UploadItemStatus } from './upload-types.ts';

const STATUS_COLOR: Record<UploadItemStatus, string> = {
  added: 'gray',
  uploading: 'violet',
  uploaded: 'teal',
  upload_failed: 'red',
};

/** One queued file: name, size, progress 0–100, status, the error, and retry / cancel / dismiss. */
export function UploadItemRow({ item, showCase = false }: { item: UploadItem; showCase?: boolean }) {
  const { t, i18n } = useTranslation();
  const percent = Math.round(item.uploadProgress * 100);
  const failed = item.status === 'upload_failed';
  const active = item.status === 'added' || item.status === 'uploading';
  const viewHref = uploadedSlidePath(item);
  return (
    <Stack gap={4} data-testid="upload-item" data-status={item.status}>
      <Group gap="xs" wrap="nowrap" justify="space-between">
        <Text size="sm" fw={500} truncate="end" title={item.filename} style={{ minWidth: 0, flex: 1 }}>
          {item.displayName || item.filename}
        </Text>
        <Badge size="xs" variant="light" color={STATUS_COLOR[item.status]} style={{ flexShrink: 0 }}>
          {t(`uploads.status.${item.status}`)}
        </Badge>
        {viewHref && (
          <Button
            component={Link}
            to={viewHref}
            size="compact-xs"
            variant="light"
            leftSection={<IconEye size={14} />}
            aria-label={t('uploads.actions.viewSlideOf', { filename: item.filename })}
            style={{ flexShrink: 0 }}
            data-testid="upload-view-slide"
          >
            {t('uploads.actions.viewSlide')}
          </Button>
        )}
        {failed && uploadRetryable(item.error) && (
          <Tooltip label={t('uploads.actions.retry')}>
            <ActionIcon
              size="sm"
              variant="subtle"
              aria-label={t('uploads.actions.retryFile', { filename: item.filename })}
              onClick={() => uploadEngine.retry(item.id)}
              data-testid="upload-retry"
            >
              <IconRefresh size={14} />
            </ActionIcon>
          </Tooltip>
        )}
        <Tooltip label={active ? t('uploads.actions.cancel') : t('uploads.actions.dismiss')}>
          <ActionIcon
            size="sm"
            variant="subtle"
            color="gray"
            aria-label={t(active ? 'uploads.actions.cancelFile' : 'uploads.actions.dismissFile', {
              filename: item.filename,
            })}
            onClick={() => (active ? uploadEngine.cancel(item.id) : uploadEngine.dismiss([item.id]))}
            data-testid={active ? 'upload-cancel' : 'upload-dismiss'}
          >
            <IconX size={14} />
          </ActionIcon>
        </Tooltip>
      </Group>
      <Progress
        size="sm"
        value={item.status === 'uploaded' ? 100 : percent}
        color={STATUS_COLOR[item.status]}
        animated={item.status === 'uploading'}
        aria-label={t('uploads.progressOf', { filename: item.filename })}
      />
      <Group gap="xs" justify="space-between" wrap="nowrap">
        <Text size="xs" c="dimmed" truncate="end">
          {showCase && item.caseId ? (
            <Anchor component={Link} to={`/cases/${item.caseId}`} size="xs">
              {item.caseNumber}
            </Anchor>
          ) : showCase ? (
            item.caseNumber
          ) : null}
          {showCase ? ' · ' : ''}
          {formatBytes(item.size, i18n.language)}
        </Text>
        <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
          {item.status === 'uploading' ? `${percent}%` : ''}
        </Text>
      </Group>
      {item.status === 'uploading' && item.reconnecting && (
        <Text size="xs" c="yellow.8" data-testid="upload-reconnecting">
          {t('uploads.reconnecting')}
        </Text>
      )}
      {failed && item.error && (
        <Text size="xs" c="red" data-testid="upload-error">
          {translateUploadError(t, item.error)}
        </Text>
      )}
    </Stack>
  );
}
