import { Anchor, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { Notice } from '@pathology/contract';
import { IconArrowLeft } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { NoticeBadges } from './NoticeBadges.tsx';
import { NoticeHtml } from './NoticeHtml.tsx';

/** A notice as readers see it, with a way back; the poster's screen adds its actions and publishing details. */
export function NoticeView({
  notice,
  back,
  meta,
  actions,
  testId,
}: {
  notice: Notice;
  back: { to: string; label: string };
  meta: ReactNode;
  actions?: ReactNode;
  testId: string;
}) {
  return (
    <Stack gap="md" data-testid={testId}>
      <Anchor component={Link} to={back.to} size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} />
          {back.label}
        </Group>
      </Anchor>
      <Paper withBorder radius="md" p="lg">
        <Stack gap="sm">
          <Group justify="space-between" wrap="nowrap">
            <Group gap="xs">
              <Title order={1} fz="h3">
                {notice.title}
              </Title>
              {actions && <NoticeBadges notice={{ ...notice, isAlreadyRead: true }} />}
            </Group>
            {actions ?? <NoticeBadges notice={notice} />}
          </Group>
          <Text size="xs" c="dimmed">
            {meta}
          </Text>
          <Text fw={500}>{notice.overview}</Text>
          <NoticeHtml html={notice.body} testId="notice-body" />
        </Stack>
      </Paper>
    </Stack>
  );
}
