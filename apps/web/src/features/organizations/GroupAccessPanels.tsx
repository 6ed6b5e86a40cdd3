import { Alert, Group, Pagination, Select, Skeleton, Stack, Table, Text } from '@mantine/core';
import { GROUP_ROLES, type Organization } from '@pathology/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../i18n/error-text.ts';
import { formatDate } from '../../lib/format-date.ts';
import { useOrganizationGrants, usePartners, useUpdateOrganizationGrant } from './organizations.queries.ts';

const PAGE_SIZE = 10;

/** Partner groups of part 3 §3: their members view and comment on every case of this group. Ten at a time. */
export function PartnersPanel({ organization }: { organization: Organization }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const partners = usePartners(organization.id, page, organization.userCapabilities.canSeePartnerList);
  if (!organization.userCapabilities.canSeePartnerList) return <Text c="dimmed">{t('groupAdmin.noRight')}</Text>;
  if (partners.isPending) return <Skeleton height={120} />;
  if (partners.isError) return <Alert color="red">{errorText(partners.error, t)}</Alert>;
  const { data, total } = partners.data;
  if (total === 0)
    return (
      <Text c="dimmed" data-testid="partners-empty">
        {t('groupAdmin.partners.empty')}
      </Text>
    );
  return (
    <Stack gap="sm" data-testid="partners">
      <Text size="sm" c="dimmed">
        {t('groupAdmin.partners.lead')}
      </Text>
      <Table striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('groupAdmin.partners.name')}</Table.Th>
            <Table.Th>{t('groupAdmin.partners.since')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {data.map((partner) => (
            <Table.Tr key={partner.id}>
              <Table.Td>{partner.name}</Table.Td>
              <Table.Td>{formatDate(partner.createdAt)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {total > PAGE_SIZE && <Pagination total={Math.ceil(total / PAGE_SIZE)} value={page} onChange={setPage} />}
    </Stack>
  );
}

/** Roles given on every case of the group; the role can be changed by those who may edit the group. */
export function GrantsPanel({ organization }: { organization: Organization }) {
  const { t } = useTranslation();
  const allowed = organization.userCapabilities.canSeeMemberList;
  const grants = useOrganizationGrants(organization.id, allowed);
  const update = useUpdateOrganizationGrant(organization.id);
  if (!allowed) return <Text c="dimmed">{t('groupAdmin.noRight')}</Text>;
  if (grants.isPending) return <Skeleton height={120} />;
  if (grants.isError) return <Alert color="red">{errorText(grants.error, t)}</Alert>;
  if (grants.data.total === 0)
    return (
      <Text c="dimmed" data-testid="grants-empty">
        {t('groupAdmin.grants.empty')}
      </Text>
    );
  return (
    <Stack gap="sm" data-testid="grants">
      {update.isError && <Alert color="red">{errorText(update.error, t)}</Alert>}
      <Table striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('groupAdmin.grants.grantee')}</Table.Th>
            <Table.Th>{t('groupAdmin.grants.type')}</Table.Th>
            <Table.Th>{t('groupAdmin.grants.role')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {grants.data.data.map((grant) => (
            <Table.Tr key={grant.id}>
              <Table.Td>{grant.granteeName}</Table.Td>
              <Table.Td>{t(`groupAdmin.grants.types.${grant.granteeType}`)}</Table.Td>
              <Table.Td>
                <Group gap="xs">
                  <Select
                    size="xs"
                    w={160}
                    data={GROUP_ROLES.map((role) => ({ value: role, label: t(`groupAdmin.roles.${role}`) }))}
                    value={grant.grantedRole}
                    allowDeselect={false}
                    disabled={!organization.userCapabilities.canEdit || update.isPending}
                    onChange={(role) => role && update.mutate({ grantId: grant.id, grantedRole: role })}
                    aria-label={t('groupAdmin.grants.role')}
                  />
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
