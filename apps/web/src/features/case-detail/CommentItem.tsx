import type { Comment } from '@pathology/contract';
import { ActionIcon, Avatar, Button, Group, Paper, Stack, Text, Textarea, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../i18n/error-text.ts';
import { formatDateTime } from '../../lib/format-date.ts';
import { useDeleteComment, useUpdateComment } from './case-detail.queries.ts';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { splitMentions } from './comment-body.ts';

function initials(name: string | null): string {
  if (!name) return '?';
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]?.toUpperCase() ?? '')
    .join('');
}

function CommentText({ body }: { body: string }) {
  return (
    <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="case-comment-body">
      {splitMentions(body).map((part, at) =>
        part.mention ? (
          <Text key={at} span c="violet.7" fw={600} data-testid="case-comment-mention">
            {part.text}
          </Text>
        ) : (
          part.text
        ),
      )}
    </Text>
  );
}

/** One comment: author, time, text; edit and delete when the caller may. */
export function CommentItem({ caseId, comment }: { caseId: string; comment: Comment }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<string | null>(null);
  const update = useUpdateComment(caseId);
  const remove = useDeleteComment(caseId);
  const author = comment.authorName ?? t('caseDetail.comments.formerUser');

  const save = () => {
    if (draft == null || draft.trim() === '') return;
    update.mutate({ commentId: comment.id, body: draft }, { onSuccess: () => setDraft(null) });
  };

  const confirmDelete = () =>
    modals.openConfirmModal({
      title: t('caseDetail.comments.deleteTitle'),
      centered: true,
      children: <Text size="sm">{t('caseDetail.comments.deleteQuestion')}</Text>,
      labels: { confirm: t('caseDetail.comments.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'case-comment-delete-confirm' },
      onConfirm: () =>
        remove.mutate(comment.id, {
          onError: (error) =>
            notifications.show({
              color: 'red',
              title: t('caseDetail.comments.deleteFailed'),
              message: errorText(error, t),
            }),
        }),
    });

  return (
    <Paper withBorder radius="md" p="md" data-testid="case-comment">
      <Group align="flex-start" gap="sm" wrap="nowrap">
        <Avatar color="violet" radius="xl" size={36}>
          {initials(comment.authorName)}
        </Avatar>
        <Stack gap={6} style={{ flex: 1, minWidth: 0 }}>
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Group gap="xs" wrap="wrap">
              <Text size="sm" fw={600} data-testid="case-comment-author">
                {author}
              </Text>
              <Text size="xs" c="dimmed" data-testid="case-comment-date">
                {formatDateTime(comment.createdAt)}
              </Text>
              {comment.updatedAt !== comment.createdAt && (
                <Text size="xs" c="dimmed">
                  {t('caseDetail.comments.edited')}
                </Text>
              )}
            </Group>
            {draft == null && (
              <Group gap={4} wrap="nowrap">
                {comment.userCapabilities.canUpdate && (
                  <Tooltip label={t('caseDetail.comments.edit')}>
                    <ActionIcon
                      variant="subtle"
                      color="gray"
                      onClick={() => setDraft(comment.body)}
                      aria-label={t('caseDetail.comments.edit')}
                      data-testid="case-comment-edit"
                    >
                      <IconPencil size={16} />
                    </ActionIcon>
                  </Tooltip>
                )}
                {comment.userCapabilities.canDelete && (
                  <Tooltip label={t('caseDetail.comments.delete')}>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      onClick={confirmDelete}
                      loading={remove.isPending}
                      aria-label={t('caseDetail.comments.delete')}
                      data-testid="case-comment-delete"
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Tooltip>
                )}
              </Group>
            )}
          </Group>
          {draft == null ? (
            <CommentText body={comment.body} />
          ) : (
            <Stack gap="xs">
              <Textarea
                value={draft}
                onChange={(event) => setDraft(event.currentTarget.value)}
                aria-label={t('caseDetail.comments.edit')}
                error={update.isError ? errorText(update.error, t) : undefined}
                autosize
                minRows={2}
                data-autofocus
                data-testid="case-comment-edit-input"
              />
              <Group justify="flex-end" gap="xs">
                <Button size="xs" variant="default" onClick={() => setDraft(null)}>
                  {t('common.cancel')}
                </Button>
                <Button
                  size="xs"
                  onClick={save}
                  loading={update.isPending}
                  disabled={draft.trim() === ''}
                  data-testid="case-comment-save"
                >
                  {t('caseDetail.comments.save')}
                </Button>
              </Group>
            </Stack>
          )}
        </Stack>
      </Group>
    </Paper>
  );
}
