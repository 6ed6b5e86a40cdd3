import { ActionIcon, Button, Group, Modal, Skeleton, Stack, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { NotFoundPage } from '../../components/NotFoundPage.tsx';
import { errorText } from '../../i18n/error-text.ts';
import { formatDateTime } from '../../lib/format-date.ts';
import { NoticeView } from './NoticeView.tsx';
import { deleteNotice, noticeQueryKeys, useNotice } from './notices.queries.ts';

/** /notices/posts/{id} (super users): the notice as readers will see it, with edit and delete. */
export function NoticePostPage() {
  const { t } = useTranslation();
  const { noticeId = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const notice = useNotice('posts', noticeId);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);

  if (notice.isError) return <NotFoundPage />;
  if (!notice.data) return <Skeleton h={240} radius="md" />;

  const remove = async () => {
    setBusy(true);
    try {
      await deleteNotice(noticeId);
      await queryClient.invalidateQueries({ queryKey: noticeQueryKeys.all });
      notifications.show({ color: 'teal', message: t('notices.posts.deleted') });
      void navigate('/notices/posts');
    } catch (error) {
      notifications.show({ color: 'red', message: t('notices.posts.deleteFailed', { message: errorText(error, t) }) });
      setBusy(false);
      setConfirming(false);
    }
  };

  const actions = (
    <Group gap={4}>
      <Tooltip label={t('notices.posts.edit')}>
        <ActionIcon
          component={Link}
          to={`/notices/posts/${noticeId}/edit`}
          variant="subtle"
          aria-label={t('notices.posts.edit')}
          data-testid="notice-edit"
        >
          <IconPencil size={18} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label={t('notices.posts.delete')}>
        <ActionIcon
          variant="subtle"
          color="red"
          onClick={() => setConfirming(true)}
          aria-label={t('notices.posts.delete')}
          data-testid="notice-delete"
        >
          <IconTrash size={18} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );

  return (
    <>
      <NoticeView
        notice={notice.data}
        back={{ to: '/notices/posts', label: t('notices.posts.back') }}
        meta={
          <>
            {t(`notices.ranges.${notice.data.permission}`)} · {formatDateTime(notice.data.openAt)}
            {notice.data.closeAt ? ` – ${formatDateTime(notice.data.closeAt)}` : ''}
          </>
        }
        actions={actions}
        testId="notice-post"
      />
      <Modal opened={confirming} onClose={() => setConfirming(false)} title={t('notices.posts.deleteTitle')} centered>
        <Stack>
          <Text size="sm">{t('notices.posts.deleteConfirm', { title: notice.data.title })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {t('notices.posts.cancel')}
            </Button>
            <Button color="red" loading={busy} onClick={() => void remove()} data-testid="notice-delete-confirm">
              {t('notices.posts.delete')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
