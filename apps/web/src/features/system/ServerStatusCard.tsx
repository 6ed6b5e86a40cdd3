import { Alert, Badge, Button, Card, Group, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { IconAlertCircle, IconDatabase, IconStack } from '@tabler/icons-react';
import { errorText } from '../../i18n/error-text.ts';
import { formatDateTime } from '../../lib/format-date.ts';
import { useHealth } from './system.queries.ts';

interface StatusRowProps {
  testId: string;
  icon: ReactNode;
  label: string;
  ok: boolean;
}

function StatusRow({ testId, icon, label, ok }: StatusRowProps) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" wrap="nowrap" gap="xs" data-testid={testId} data-ok={ok}>
      <Group gap="sm" wrap="nowrap" miw={0}>
        <ThemeIcon variant="light" size="lg" radius="md" style={{ flexShrink: 0 }}>
          {icon}
        </ThemeIcon>
        <Text fw={500} truncate="end">
          {label}
        </Text>
      </Group>
      <Badge
        variant="light"
        color={ok ? 'teal' : 'red'}
        size="md"
        radius="sm"
        tt="none"
        leftSection={<StatusDot ok={ok} />}
        style={{ flexShrink: 0, overflow: 'visible' }}
      >
        {ok ? t('system.status.up') : t('system.status.down')}
      </Badge>
    </Group>
  );
}

function StatusDot({ ok }: { ok: boolean }) {
  return (
    <span
      style={{
        display: 'inline-block',
        width: 8,
        height: 8,
        borderRadius: '50%',
        background: ok ? 'var(--mantine-color-teal-6)' : 'var(--mantine-color-red-6)',
      }}
    />
  );
}

/** Shows whether the server and its database and job queue answer: the first proof that web and server talk. */
export function ServerStatusCard() {
  const { t } = useTranslation();
  const health = useHealth();

  let body: ReactNode;
  if (health.isPending) {
    body = (
      <Stack gap="md">
        <Skeleton height={34} radius="md" />
        <Skeleton height={34} radius="md" />
      </Stack>
    );
  } else if (health.isError && !health.data) {
    body = (
      <Alert variant="light" color="red" icon={<IconAlertCircle size={20} />} title={t('system.status.loadFailed')}>
        <Stack gap="sm" align="flex-start">
          <Text size="sm">{errorText(health.error, t)}</Text>
          <Button size="xs" variant="outline" color="red" onClick={() => void health.refetch()}>
            {t('system.status.retry')}
          </Button>
        </Stack>
      </Alert>
    );
  } else if (health.data) {
    body = (
      <Stack gap="md">
        <StatusRow
          testId="status-database"
          icon={<IconDatabase size={18} />}
          label={t('system.status.database')}
          ok={health.data.database.ok}
        />
        <StatusRow
          testId="status-queue"
          icon={<IconStack size={18} />}
          label={t('system.status.queue')}
          ok={health.data.queue.ok}
        />
      </Stack>
    );
  }

  const healthy = health.data?.status === 'ok';
  return (
    <Card withBorder radius="lg" padding="lg" shadow="xs" data-testid="server-status">
      <Stack gap="lg">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={4} style={{ whiteSpace: 'nowrap' }}>
            {t('system.status.title')}
          </Title>
          {health.data && (
            <Badge variant="dot" color={healthy ? 'teal' : 'orange'} size="lg" tt="none" fw={500}>
              {healthy ? t('system.status.overall.ok') : t('system.status.overall.degraded')}
            </Badge>
          )}
        </Group>
        {body}
        {health.dataUpdatedAt > 0 && (
          <Text size="xs" c={health.isError ? 'red' : 'dimmed'}>
            {t('system.status.checkedAt', { time: formatDateTime(health.dataUpdatedAt) })}
            {/* A failed background check keeps the last answer on screen and says it is stale. */}
            {health.isError && ` · ${t('system.status.loadFailed')}`}
          </Text>
        )}
      </Stack>
    </Card>
  );
}
