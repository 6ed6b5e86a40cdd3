import { Alert, Button, EmptyState, Group, Paper, Skeleton, Stack, Title } from '@mantine/core';
import { IconAt } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../i18n/error-text.ts';
import { MentionItem } from './MentionItem.tsx';
import { useMentions } from './notices.queries.ts';
import { NoticesSwitch } from './NoticesSwitch.tsx';

/** /mentions: where the user was mentioned, ten at a time with Read More. */
export function MentionsPage() {
  const { t } = useTranslation();
  const mentions = useMentions();
  const all = mentions.data?.pages.flatMap((page) => page.data) ?? [];
  return (
    <Stack gap="md" data-testid="mentions-page">
      <Group justify="space-between">
        <Title order={1} fz="h2">
          {t('notices.mentionsTitle')}
        </Title>
        <NoticesSwitch value="mentions" />
      </Group>
      {mentions.isError && (
        <Alert color="red">{t('notices.mentionsFailed', { message: errorText(mentions.error, t) })}</Alert>
      )}
      {mentions.isPending && <Skeleton h={120} radius="md" />}
      {mentions.isSuccess && all.length === 0 && (
        <EmptyState
          variant="light"
          icon={<IconAt size={24} />}
          title={t('notices.noMentions')}
          data-testid="mentions-empty"
        />
      )}
      {all.map((mention) => (
        <Paper key={mention.id} withBorder radius="md" p="md">
          <MentionItem mention={mention} />
        </Paper>
      ))}
      {mentions.hasNextPage && (
        <Button
          variant="light"
          w="fit-content"
          loading={mentions.isFetchingNextPage}
          onClick={() => void mentions.fetchNextPage()}
          data-testid="mentions-read-more"
        >
          {t('notices.readMore')}
        </Button>
      )}
    </Stack>
  );
}
