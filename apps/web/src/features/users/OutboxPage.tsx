import { Accordion, Alert, Anchor, Badge, Group, Skeleton, Stack, Text } from '@mantine/core';
import { IconInbox } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { LoadErrorAlert } from '../../components/LoadErrorAlert.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { formatDateTime } from '../../lib/format-date.ts';
import { mailTextParts } from './mail-links.ts';
import { useOutbox } from './users.queries.ts';

/**
 * /outbox (super users): the mails of an installation without SMTP_URL, newest first, so an invitation can be
 * read and passed on by hand.
 */
export function OutboxPage() {
  const { t } = useTranslation();
  const outbox = useOutbox();
  return (
    <Stack gap="xl" data-testid="outbox-page">
      <PageHeader title={t('users.outbox.title')} description={t('users.outbox.description')} />
      {outbox.isPending ? (
        <Skeleton height={240} />
      ) : outbox.isError ? (
        <LoadErrorAlert
          title={t('users.outbox.loadFailed')}
          error={outbox.error}
          retryLabel={t('organizations.retry')}
          onRetry={() => outbox.refetch()}
          testId="outbox-error"
        />
      ) : outbox.data.data.length === 0 ? (
        <Alert icon={<IconInbox size={18} />} color="gray" data-testid="outbox-empty">
          {t('users.outbox.empty')}
        </Alert>
      ) : (
        <Accordion variant="separated" radius="md" data-testid="outbox-list">
          {outbox.data.data.map((mail) => (
            <Accordion.Item key={mail.id} value={mail.id} data-testid="outbox-mail" data-to={mail.to}>
              <Accordion.Control>
                <Group justify="space-between" wrap="nowrap" pr="sm">
                  <Stack gap={0} miw={0}>
                    <Text fw={600} truncate="end">
                      {mail.subject}
                    </Text>
                    <Text size="sm" c="dimmed">
                      {mail.to}
                    </Text>
                  </Stack>
                  <Badge variant="light" color="gray" tt="none">
                    {formatDateTime(mail.sentAt)}
                  </Badge>
                </Group>
              </Accordion.Control>
              <Accordion.Panel>
                <Text size="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }} data-testid="outbox-text">
                  {mailTextParts(mail.text, window.location.origin).map((part, index) =>
                    'href' in part ? (
                      <Anchor key={index} href={part.href} data-testid="outbox-link">
                        {part.text}
                      </Anchor>
                    ) : (
                      part.text
                    ),
                  )}
                </Text>
              </Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
      )}
    </Stack>
  );
}
