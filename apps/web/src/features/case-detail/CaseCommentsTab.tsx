import type { Case } from '@pathology/contract';
import { Alert, Button, EmptyState, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { IconAlertCircle, IconAt, IconMessage } from '@tabler/icons-react';
import { errorText } from '../../i18n/error-text.ts';
import { CommentItem } from './CommentItem.tsx';
import { MentionTextarea } from './MentionTextarea.tsx';
import { useAddComment, useComments } from './case-detail.queries.ts';

/** Comments tab: the thread (oldest first) and a box to add one; `@name` mentions a member of the group. */
export function CaseCommentsTab({ item }: { item: Case }) {
  const { t } = useTranslation();
  const comments = useComments(item.id);
  const add = useAddComment(item.id);
  const [body, setBody] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (body.trim() === '') return;
    add.mutate(body, { onSuccess: () => setBody('') });
  };

  return (
    <Stack gap="lg" data-testid="case-comments">
      <Title order={3} fz="lg">
        {t('caseDetail.comments.title')}
      </Title>
      {comments.isPending && (
        <Stack gap="sm" aria-busy>
          <Skeleton height={72} radius="md" />
          <Skeleton height={72} radius="md" />
        </Stack>
      )}
      {comments.isError && (
        <Alert
          color="red"
          variant="light"
          icon={<IconAlertCircle size={20} />}
          title={t('caseDetail.comments.loadFailed')}
        >
          <Text size="sm">{errorText(comments.error, t)}</Text>
        </Alert>
      )}
      {comments.isSuccess && comments.data.data.length === 0 && (
        <EmptyState
          variant="light"
          size="sm"
          icon={<IconMessage size={24} />}
          title={t('caseDetail.comments.empty')}
          data-testid="case-comments-empty"
        />
      )}
      {comments.isSuccess && comments.data.data.length > 0 && (
        <Stack gap="sm" data-testid="case-comment-list">
          {comments.data.data.map((comment) => (
            <CommentItem key={comment.id} caseId={item.id} comment={comment} />
          ))}
        </Stack>
      )}
      {item.userCapabilities.canComment ? (
        <form onSubmit={submit} data-testid="case-comment-form">
          <Stack gap="xs">
            <MentionTextarea
              caseId={item.id}
              label={t('caseDetail.comments.new')}
              placeholder={t('caseDetail.comments.placeholder')}
              description={
                <Group gap={4} component="span" wrap="nowrap">
                  <IconAt size={12} />
                  {t('caseDetail.comments.mentionHint')}
                </Group>
              }
              value={body}
              onChange={setBody}
              error={add.isError ? errorText(add.error, t) : undefined}
              autosize
              minRows={3}
              maxRows={10}
              data-testid="case-comment-input"
            />
            <Group justify="flex-end">
              <Button
                type="submit"
                loading={add.isPending}
                disabled={body.trim() === ''}
                data-testid="case-comment-submit"
              >
                {t('caseDetail.comments.submit')}
              </Button>
            </Group>
          </Stack>
        </form>
      ) : (
        <Text size="sm" c="dimmed">
          {t('caseDetail.comments.readOnly')}
        </Text>
      )}
    </Stack>
  );
}
