import { Badge, EmptyState, Grid, Paper, SimpleGrid, Skeleton, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader.tsx';
import { IconUsersGroup } from '@tabler/icons-react';
import { ServerStatusCard } from '../system/ServerStatusCard.tsx';
import { useAccountRoles } from '../account/account.queries.ts';
import { CreateOrganizationButton } from './CreateOrganizationButton.tsx';
import { OrganizationCard } from './OrganizationCard.tsx';
import { useCurrentOrganization } from './useCurrentOrganization.ts';
import { LoadErrorAlert } from '../../components/LoadErrorAlert.tsx';

function GroupList() {
  const { t } = useTranslation();
  const { organizations, current, select } = useCurrentOrganization();

  if (organizations.isPending) {
    return (
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md" data-testid="organizations-loading" aria-busy>
        {[0, 1, 2, 3].map((index) => (
          <Skeleton key={index} height={128} radius="lg" />
        ))}
      </SimpleGrid>
    );
  }
  if (organizations.isError) {
    return (
      <LoadErrorAlert
        title={t('organizations.loadFailed')}
        error={organizations.error}
        retryLabel={t('organizations.retry')}
        onRetry={() => organizations.refetch()}
        testId="organizations-error"
      />
    );
  }
  const list = organizations.data.data;
  if (list.length === 0) {
    return (
      <Paper withBorder radius="lg" py={64} px="lg" data-testid="organizations-empty">
        <EmptyState
          variant="light"
          icon={<IconUsersGroup size={28} />}
          title={t('organizations.empty.title')}
          description={t('organizations.empty.description')}
        />
      </Paper>
    );
  }
  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md" data-testid="organizations-list">
      {list.map((organization) => (
        <OrganizationCard
          key={organization.id}
          organization={organization}
          current={organization.id === current?.id}
          onSelect={() => select(organization.id)}
        />
      ))}
    </SimpleGrid>
  );
}

function VisibleCount() {
  const { t } = useTranslation();
  const { organizations } = useCurrentOrganization();
  const total = organizations.data?.total;
  if (total === undefined) return null;
  return (
    <Badge variant="light" size="lg" radius="sm" tt="none" fw={500} data-testid="organizations-total">
      {t('organizations.total', { count: total })}
    </Badge>
  );
}

/** /organizations: the groups the user can see; choosing one makes it the current group, its arrow opens its page. */
export function OrganizationsPage() {
  const { t } = useTranslation();
  const roles = useAccountRoles();
  return (
    <Stack gap="xl">
      <PageHeader
        title={t('organizations.title')}
        description={t('organizations.description')}
        actions={
          <>
            <VisibleCount />
            {roles.data?.checks.canCreateOrganization && <CreateOrganizationButton />}
          </>
        }
      />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, xl: 8 }}>
          <GroupList />
        </Grid.Col>
        <Grid.Col span={{ base: 12, xl: 4 }}>
          <ServerStatusCard />
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
