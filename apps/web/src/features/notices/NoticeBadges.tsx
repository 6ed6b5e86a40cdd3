import { Badge, Group } from '@mantine/core';
import type { Notice } from '@pathology/contract';
import { useTranslation } from 'react-i18next';

/** Draft, NEW and Unread (part 3 §2), as they apply. */
export function NoticeBadges({ notice }: { notice: Notice }) {
  const { t } = useTranslation();
  return (
    <Group gap={4} wrap="nowrap">
      {notice.isDraft && (
        <Badge size="xs" color="gray" variant="filled" data-testid="notice-badge-draft">
          {t('notices.badges.draft')}
        </Badge>
      )}
      {notice.isNew && (
        <Badge size="xs" color="red" variant="filled" data-testid="notice-badge-new">
          {t('notices.badges.new')}
        </Badge>
      )}
      {!notice.isAlreadyRead && (
        <Badge size="xs" color="violet" variant="light" data-testid="notice-badge-unread">
          {t('notices.badges.unread')}
        </Badge>
      )}
    </Group>
  );
}
