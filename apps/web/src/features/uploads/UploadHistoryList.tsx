import { Anchor, Badge, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../lib/format-date.ts';
import { translateUploadError } from './upload-error-text.ts';
import type { UploadNotification } from './upload-notifications.ts';
import type { UploadEventType } from './upload-types.ts';

const TYPE_COLOR: Record<UploadEventType, string> = {
  upload_started: 'violet',
  upload_completed: 'teal',
  upload_failed: 'red',
};

/** The upload notifications, newest first: what happened, to which file of which case, when, and why it failed. */
export function UploadHistoryList({
  entries,
  onNavigate,
}: {
  entries: readonly UploadNotification[];
  onNavigate?: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} data-testid="upload-history">
      {entries.map((entry) => (
        <li key={entry.id} data-testid="upload-history-entry" data-type={entry.type}>
          <Group gap={6} wrap="nowrap" align="flex-start">
            <Badge size="xs" variant="light" color={TYPE_COLOR[entry.type]} mt={2} style={{ flexShrink: 0 }}>
              {t(`uploads.history.${entry.type}`)}
            </Badge>
            <Stack gap={0} style={{ minWidth: 0, flex: 1 }}>
              <Text size="sm" truncate="end" title={entry.filename}>
                {entry.filename}
              </Text>
              <Group gap={6} wrap="nowrap">
                {entry.caseId ? (
                  <Anchor component={Link} to={`/cases/${entry.caseId}`} size="xs" onClick={onNavigate} truncate="end">
                    {entry.caseNumber}
                  </Anchor>
                ) : (
                  <Text size="xs" truncate="end">
                    {entry.caseNumber}
                  </Text>
                )}
                <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
                  {formatDateTime(entry.at)}
                </Text>
              </Group>
              {entry.error && (
                <Text size="xs" c="red">
                  {translateUploadError(t, entry.error)}
                </Text>
              )}
            </Stack>
          </Group>
        </li>
      ))}
    </Stack>
  );
}
