import { Anchor, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { NotFoundPage } from '../../components/NotFoundPage.tsx';
import { formatDateTime } from '../../lib/format-date.ts';
import { NoticeBadges } from './NoticeBadges.tsx';
import { NoticeHtml } from './NoticeHtml.tsx';
import { useNotice, useReadNotice } from './notices.queries.ts';

/** /notices/{id}: the notice, marked read on opening (the bell's badge drops at once); 403/404 → not found. */
export function NoticeDetailPage() {
  const { t } = useTranslation();
  const { noticeId = '' } = useParams();
  const notice = useNotice('reader', noticeId);
  const markRead = useReadNotice();
  const unread = notice.data?.isAlreadyRead === false;

  useEffect(() => {
    if (unread) void markRead(noticeId);
  }, [unread, noticeId, markRead]);

  if (notice.isError) return <NotFoundPage />;
  if (!notice.data) return <Skeleton h={240} radius="md" />;
  return (
    <Stack gap="md" data-testid="notice-detail">
      <Anchor component={Link} to="/notices" size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} />
          {t('notices.back')}
        </Group>
      </Anchor>
      <Paper withBorder radius="md" p="lg">
        <Stack gap="sm">
          <Group justify="space-between" wrap="nowrap">
            <Title order={1} fz="h3">
              {notice.data.title}
            </Title>
            <NoticeBadges notice={notice.data} />
          </Group>
          <Text size="xs" c="dimmed">
            {formatDateTime(notice.data.openAt)}
          </Text>
          <Text fw={500}>{notice.data.overview}</Text>
          <NoticeHtml html={notice.data.body} testId="notice-body" />
        </Stack>
      </Paper>
    </Stack>
  );
}
