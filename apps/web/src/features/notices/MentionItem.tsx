import { Anchor, Badge, Group, Stack, Text } from '@mantine/core';
import type { Mention } from '@pathology/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../lib/format-date.ts';

/** Where a mention was made: the image (a note on it) or the case's comments. */
export function mentionHref(mention: Pick<Mention, 'caseId' | 'imageId'>): string {
  return mention.imageId ? `/cases/${mention.caseId}/images/${mention.imageId}` : `/cases/${mention.caseId}/comments`;
}

/** One mention: who, where, when, the message as typed (mentions are plain @name text), NEW for three days. */
export function MentionItem({ mention, onNavigate }: { mention: Mention; onNavigate?: () => void }) {
  const { t } = useTranslation();
  return (
    <Stack gap={2} data-testid="mention-item">
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Anchor
          component={Link}
          to={mentionHref(mention)}
          size="sm"
          fw={600}
          onClick={onNavigate}
          data-testid="mention-link"
        >
          {mention.label}
        </Anchor>
        {mention.isNew && (
          <Badge size="xs" color="red" variant="filled">
            {t('notices.badges.new')}
          </Badge>
        )}
      </Group>
      <Text size="xs" c="dimmed">
        {mention.authorName ? `${t('notices.mentionedBy', { name: mention.authorName })} · ` : ''}
        {formatDateTime(mention.createdAt)}
      </Text>
      <Text size="sm" lineClamp={3} style={{ whiteSpace: 'pre-wrap' }}>
        {mention.message}
      </Text>
    </Stack>
  );
}
