import {
  Alert,
  Anchor,
  EmptyState,
  Group,
  Pagination,
  Paper,
  SegmentedControl,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconSpeakerphone } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { errorText } from '../../i18n/error-text.ts';
import { formatDateTime } from '../../lib/format-date.ts';
import { NoticeBadges } from './NoticeBadges.tsx';
import { NOTICE_PAGE_SIZE, useNotices, type ReadFilter } from './notices.queries.ts';
import { NoticesSwitch } from './NoticesSwitch.tsx';

const FILTERS: ReadFilter[] = ['ALL', 'UNREAD', 'READ'];
const isFilter = (value: string | null): value is ReadFilter => FILTERS.includes(value as ReadFilter);

/** /notices: the notices that reach the reader, ten a page, filtered by read state (kept in the URL). */
export function NoticesPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const read = isFilter(params.get('read')) ? (params.get('read') as ReadFilter) : 'ALL';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const notices = useNotices('reader', page, read);
  const set = (next: { read?: ReadFilter; page?: number }) => {
    const merged = new URLSearchParams(params);
    if (next.read !== undefined) {
      if (next.read === 'ALL') merged.delete('read');
      else merged.set('read', next.read);
      merged.delete('page');
    }
    if (next.page !== undefined) merged.set('page', String(next.page));
    setParams(merged);
  };

  return (
    <Stack gap="md" data-testid="notices-page">
      <Group justify="space-between">
        <Title order={1} fz="h2">
          {t('notices.title')}
        </Title>
        <NoticesSwitch value="notices" />
      </Group>
      <SegmentedControl
        w="fit-content"
        value={read}
        onChange={(value) => set({ read: value })}
        aria-label={t('notices.filter.label')}
        data={FILTERS.map((value) => ({ value, label: t(`notices.filter.${value}`) }))}
        data-testid="notices-read-filter"
      />
      {notices.isError && (
        <Alert color="red">{t('notices.loadFailed', { message: errorText(notices.error, t) })}</Alert>
      )}
      {notices.isPending && <Skeleton h={120} radius="md" />}
      {notices.data?.data.length === 0 && (
        <EmptyState
          variant="light"
          icon={<IconSpeakerphone size={24} />}
          title={t('notices.empty')}
          data-testid="notices-empty"
        />
      )}
      {notices.data?.data.map((notice) => (
        <Paper key={notice.id} withBorder radius="md" p="md" data-testid="notice-item">
          <Stack gap={4}>
            <Group justify="space-between" wrap="nowrap">
              <Anchor component={Link} to={`/notices/${notice.id}`} fw={600} data-testid="notice-link">
                {notice.title}
              </Anchor>
              <NoticeBadges notice={notice} />
            </Group>
            <Text size="xs" c="dimmed">
              {formatDateTime(notice.openAt)}
            </Text>
            <Text size="sm" lineClamp={3}>
              {notice.overview}
            </Text>
          </Stack>
        </Paper>
      ))}
      {notices.data && notices.data.total > NOTICE_PAGE_SIZE && (
        <Pagination
          total={Math.ceil(notices.data.total / NOTICE_PAGE_SIZE)}
          value={page}
          onChange={(next) => set({ page: next })}
        />
      )}
    </Stack>
  );
}
