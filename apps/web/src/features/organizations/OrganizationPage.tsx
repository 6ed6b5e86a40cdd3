import { Anchor, Badge, Button, Card, Grid, Group, Skeleton, Stack, Tabs, Text } from '@mantine/core';
import { IconArrowLeft, IconSparkles, IconUsers } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { LoadErrorAlert } from '../../components/LoadErrorAlert.tsx';
import { NotFoundPage } from '../../components/NotFoundPage.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { AuthError } from '../../api/client.ts';
import { DeleteOrganizationButton } from './DeleteOrganizationButton.tsx';
import { GrantsPanel, PartnersPanel } from './GroupAccessPanels.tsx';
import { OrganizationSettingsForm } from './OrganizationSettingsForm.tsx';
import { StorageCard } from './StorageCard.tsx';
import { useOrganization } from './organizations.queries.ts';

/** /organizations/{id}: a group's settings, storage, members, partners and grants (part 3 §2, §3). */
export function OrganizationPage() {
  const { t } = useTranslation();
  const { organizationId = '' } = useParams();
  const organization = useOrganization(organizationId);

  if (organization.isPending) return <Skeleton height={420} radius="lg" data-testid="organization-loading" />;
  if (organization.error instanceof AuthError) return <NotFoundPage />;
  if (organization.isError) {
    return (
      <LoadErrorAlert
        title={t('groupAdmin.loadFailed')}
        error={organization.error}
        retryLabel={t('organizations.retry')}
        onRetry={() => organization.refetch()}
        testId="organization-error"
      />
    );
  }
  const group = organization.data;
  const capabilities = group.userCapabilities;
  return (
    <Stack gap="lg" data-testid="organization-page">
      <Anchor component={Link} to="/organizations" size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} />
          {t('groupAdmin.back')}
        </Group>
      </Anchor>
      <PageHeader
        title={<span data-testid="organization-title">{group.name}</span>}
        description={
          <Group gap="xs" component="span">
            <span>{group.contractName}</span>
            {group.predictionEnabled && (
              <Badge size="sm" variant="light" leftSection={<IconSparkles size={12} />}>
                {t('organizations.badges.ai')}
              </Badge>
            )}
          </Group>
        }
        actions={capabilities.canDelete && <DeleteOrganizationButton organization={group} />}
      />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, xl: 8 }}>
          <Card withBorder radius="lg" padding="lg">
            <Tabs defaultValue="settings" keepMounted={false}>
              <Tabs.List mb="md">
                <Tabs.Tab value="settings" data-testid="organization-tab-settings">
                  {t('groupAdmin.tabs.settings')}
                </Tabs.Tab>
                <Tabs.Tab value="partners" data-testid="organization-tab-partners">
                  {t('groupAdmin.tabs.partners')}
                </Tabs.Tab>
                <Tabs.Tab value="grants" data-testid="organization-tab-grants">
                  {t('groupAdmin.tabs.grants')}
                </Tabs.Tab>
              </Tabs.List>
              <Tabs.Panel value="settings">
                <OrganizationSettingsForm organization={group} />
              </Tabs.Panel>
              <Tabs.Panel value="partners">
                <PartnersPanel organization={group} />
              </Tabs.Panel>
              <Tabs.Panel value="grants">
                <GrantsPanel organization={group} />
              </Tabs.Panel>
            </Tabs>
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, xl: 4 }}>
          <Stack gap="lg">
            <StorageCard organization={group} />
            <Card withBorder radius="lg" padding="lg">
              <Stack gap="xs">
                <Text fw={600}>{t('groupAdmin.members.title')}</Text>
                <Text size="sm" c="dimmed" data-testid="organization-member-count">
                  {t('groupAdmin.members.count', { count: group.memberCount })} ·{' '}
                  {t('groupAdmin.members.cases', { count: group.caseCount })}
                </Text>
                {capabilities.canSeeMemberList && (
                  <Button
                    component={Link}
                    to={`/users?organization=${group.id}`}
                    variant="light"
                    leftSection={<IconUsers size={16} />}
                    data-testid="organization-manage-members"
                  >
                    {t('groupAdmin.members.manage')}
                  </Button>
                )}
              </Stack>
            </Card>
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
