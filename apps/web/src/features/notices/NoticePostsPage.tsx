import {
  Alert,
  Anchor,
  Button,
  EmptyState,
  Group,
  Pagination,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconPlus, IconSpeakerphone } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorText } from '../../i18n/error-text.ts';
import { formatDateTime } from '../../lib/format-date.ts';
import { NoticeBadges } from './NoticeBadges.tsx';
import { NOTICE_PAGE_SIZE, useNotices } from './notices.queries.ts';

/** /notices/posts (super users): every notice, drafts included, with Add Notice. */
export function NoticePostsPage() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const notices = useNotices('posts', page);
  return (
    <Stack gap="md" data-testid="notice-posts">
      <Group justify="space-between">
        <Title order={1} fz="h2">
          {t('notices.posts.title')}
        </Title>
        <Button component={Link} to="/notices/posts/new" leftSection={<IconPlus size={16} />} data-testid="notice-add">
          {t('notices.posts.add')}
        </Button>
      </Group>
      {notices.isError && (
        <Alert color="red">{t('notices.loadFailed', { message: errorText(notices.error, t) })}</Alert>
      )}
      {notices.isPending && <Skeleton h={160} radius="md" />}
      {notices.data?.data.length === 0 && (
        <EmptyState variant="light" icon={<IconSpeakerphone size={24} />} title={t('notices.empty')} />
      )}
      {notices.data && notices.data.data.length > 0 && (
        <Table striped verticalSpacing={6}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('notices.form.title')}</Table.Th>
              <Table.Th>{t('notices.posts.range')}</Table.Th>
              <Table.Th>{t('notices.posts.opens')}</Table.Th>
              <Table.Th>{t('notices.posts.closes')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {notices.data.data.map((notice) => (
              <Table.Tr key={notice.id} data-testid="notice-post-row">
                <Table.Td>
                  <Anchor component={Link} to={`/notices/posts/${notice.id}`} fw={600}>
                    {notice.title}
                  </Anchor>
                </Table.Td>
                <Table.Td>{t(`notices.ranges.${notice.permission}`)}</Table.Td>
                <Table.Td>{formatDateTime(notice.openAt)}</Table.Td>
                <Table.Td>
                  <Text size="sm">{notice.closeAt ? formatDateTime(notice.closeAt) : t('notices.posts.never')}</Text>
                </Table.Td>
                <Table.Td>
                  <NoticeBadges notice={{ ...notice, isAlreadyRead: true }} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {notices.data && notices.data.total > NOTICE_PAGE_SIZE && (
        <Pagination total={Math.ceil(notices.data.total / NOTICE_PAGE_SIZE)} value={page} onChange={setPage} />
      )}
    </Stack>
  );
}
