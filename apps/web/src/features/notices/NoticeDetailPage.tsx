import { Skeleton } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { NotFoundPage } from '../../components/NotFoundPage.tsx';
import { formatDateTime } from '../../lib/format-date.ts';
import { NoticeView } from './NoticeView.tsx';
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
    <NoticeView
      notice={notice.data}
      back={{ to: '/notices', label: t('notices.back') }}
      meta={formatDateTime(notice.data.openAt)}
      testId="notice-detail"
    />
  );
}
