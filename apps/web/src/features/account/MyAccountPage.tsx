import {
  ActionIcon,
  Anchor,
  Avatar,
  Badge,
  Button,
  Card,
  Code,
  CopyButton,
  DataList,
  Grid,
  Group,
  Skeleton,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import type { Account } from '@pathology/contract';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader.tsx';
import { IconBuilding, IconCheck, IconCopy, IconEdit, IconShieldCheck } from '@tabler/icons-react';
import { formatDate } from '../../lib/format-date.ts';
import { useAccount } from './account.queries.ts';
import { EditAccountCard } from './EditAccountCard.tsx';
import { accountName, fullName, initials } from './person-name.ts';
import { LoadErrorAlert } from '../../components/LoadErrorAlert.tsx';

function NotSet() {
  const { t } = useTranslation();
  return (
    <Text span c="dimmed" fs="italic" size="sm">
      {t('account.notSet')}
    </Text>
  );
}

function orNotSet(value: string | null | undefined, render: (value: string) => ReactNode = (v) => v): ReactNode {
  return value?.trim() ? render(value) : <NotSet />;
}

function ProfileCard({ account }: { account: Account }) {
  const { t, i18n } = useTranslation();
  const name = accountName(account, i18n.language);
  return (
    <Card withBorder radius="lg" padding="xl" shadow="xs" data-testid="account-profile">
      <Stack align="center" gap="sm" ta="center">
        <Avatar src={account.avatarUrl} alt="" size={96} radius={96} color="violet" variant="light">
          <Text fz={32} fw={600} c="violet">
            {initials(name)}
          </Text>
        </Avatar>
        <Stack gap={2} align="center">
          <Title order={2} fz="h3" data-testid="account-name">
            {name}
          </Title>
          <Text c="dimmed" size="sm">
            {account.email}
          </Text>
        </Stack>
        {account.affiliation && (
          <Text size="sm" c="dimmed" maw={320}>
            <IconBuilding size={14} style={{ verticalAlign: '-2px', marginInlineEnd: 6 }} />
            {account.affiliation}
          </Text>
        )}
        {account.isSuperUser && (
          <Badge variant="light" leftSection={<IconShieldCheck size={12} />} tt="none">
            {t('account.superUser')}
          </Badge>
        )}
        <Text size="xs" c="dimmed">
          {t('account.memberSince', { date: formatDate(account.createdAt) })}
        </Text>
      </Stack>
    </Card>
  );
}

function CopyId({ id }: { id: string }) {
  const { t } = useTranslation();
  return (
    <Group gap={4} wrap="nowrap">
      <Code data-testid="account-id">{id}</Code>
      <CopyButton value={id}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? t('account.copied') : t('account.copy')} withArrow>
            <ActionIcon
              variant="subtle"
              color={copied ? 'teal' : 'gray'}
              size="sm"
              onClick={copy}
              aria-label={t('account.copy')}
            >
              {copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}

function DetailsCard({ account }: { account: Account }) {
  const { t, i18n } = useTranslation();
  const rows: [string, ReactNode][] = [
    [t('account.fields.id'), <CopyId key="id" id={account.id} />],
    [t('account.fields.email'), account.email],
    [t('account.fields.fullName'), orNotSet(fullName(account, i18n.language))],
    [t('account.fields.firstName'), orNotSet(account.firstName)],
    [t('account.fields.lastName'), orNotSet(account.lastName)],
    [t('account.fields.displayName'), orNotSet(account.displayName)],
    [t('account.fields.affiliation'), orNotSet(account.affiliation)],
    [
      t('account.fields.avatarUrl'),
      orNotSet(account.avatarUrl, (url) =>
        url.startsWith('data:') ? (
          <Avatar src={url} alt="" size="sm" />
        ) : (
          <Anchor href={url} target="_blank" rel="noopener noreferrer" size="sm" style={{ wordBreak: 'break-all' }}>
            {url}
          </Anchor>
        ),
      ),
    ],
    [
      t('account.fields.profile'),
      orNotSet(account.profile, (text) => (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
          {text}
        </Text>
      )),
    ],
  ];
  return (
    <Card withBorder radius="lg" padding="xl" shadow="xs" data-testid="account-details">
      <Stack gap="md">
        <Title order={3} fz="h4">
          {t('account.details')}
        </Title>
        <DataList withDivider labelWidth={160} gap="md">
          {rows.map(([label, value]) => (
            <DataList.Item key={label}>
              <DataList.ItemLabel c="dimmed">{label}</DataList.ItemLabel>
              <DataList.ItemValue>{value}</DataList.ItemValue>
            </DataList.Item>
          ))}
        </DataList>
      </Stack>
    </Card>
  );
}

/** /my-account: the signed-in person's local account (GET accounts/me). */
export function MyAccountPage() {
  const { t } = useTranslation();
  const account = useAccount();
  const [editing, setEditing] = useState(false);

  let body: ReactNode;
  if (account.isPending) {
    body = (
      <Grid gap="lg" data-testid="account-loading" aria-busy>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <Skeleton height={280} radius="lg" />
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Skeleton height={420} radius="lg" />
        </Grid.Col>
      </Grid>
    );
  } else if (account.isError) {
    body = (
      <LoadErrorAlert
        title={t('account.loadFailed')}
        error={account.error}
        retryLabel={t('account.retry')}
        onRetry={() => account.refetch()}
        testId="account-error"
      />
    );
  } else {
    body = (
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <ProfileCard account={account.data} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 8 }}>
          {editing ? (
            <EditAccountCard account={account.data} onDone={() => setEditing(false)} />
          ) : (
            <DetailsCard account={account.data} />
          )}
        </Grid.Col>
      </Grid>
    );
  }

  return (
    <Stack gap="xl" data-testid="my-account">
      <PageHeader
        title={t('account.title')}
        description={t('account.description')}
        actions={
          account.data &&
          !editing && (
            <Button
              leftSection={<IconEdit size={16} />}
              onClick={() => setEditing(true)}
              data-testid="account-edit-open"
            >
              {t('account.edit.open')}
            </Button>
          )
        }
      />
      {body}
    </Stack>
  );
}
