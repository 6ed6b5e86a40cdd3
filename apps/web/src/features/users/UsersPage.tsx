import {
  Badge,
  Card,
  Group,
  Pagination,
  SegmentedControl,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import {
  GROUP_ROLES,
  MANAGE_TYPES,
  MEMBERSHIP_FILTER_FIELDS,
  MEMBERSHIP_PAGE_SIZE,
  type MembershipListQuery,
} from '@pathology/contract';
import { IconChevronDown, IconChevronUp, IconSearch, IconSelector } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { LoadErrorAlert } from '../../components/LoadErrorAlert.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { errorText } from '../../i18n/error-text.ts';
import { formatDate } from '../../lib/format-date.ts';
import { useCurrentOrganization } from '../organizations/useCurrentOrganization.ts';
import { InviteUserButton } from './InviteUserButton.tsx';
import { MemberActions } from './MemberActions.tsx';
import { TeamCell } from './TeamCell.tsx';
import { useMemberships, useUpdateMember } from './users.queries.ts';

type SortField = NonNullable<MembershipListQuery['field']>;
const COLUMNS: readonly SortField[] = ['email', 'firstName', 'lastName', 'role', 'team', 'createdAt'];
/** An address or a name without spaces breaks where it must instead of widening its column. */
const WRAP_ANYWHERE = { overflowWrap: 'anywhere' } as const;

/** Paging, sorting and the filter live in the address, so a reload or a shared link shows the same list. */
function useListState() {
  const [params, setParams] = useSearchParams();
  const update = (changes: Record<string, string | null>) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes)) {
          if (value == null || value === '') next.delete(key);
          else next.set(key, value);
        }
        return next;
      },
      { replace: true },
    );
  const query: MembershipListQuery = {
    page: Number(params.get('page') ?? 1) || 1,
    limit: MEMBERSHIP_PAGE_SIZE,
    field: (params.get('sort') as SortField | null) ?? 'email',
    direction: params.get('direction') === 'desc' ? 'desc' : 'asc',
    filterField: (params.get('filterField') as MembershipListQuery['filterField']) ?? 'email',
    filterValue: params.get('filter') ?? undefined,
    manageType: (params.get('manage') as MembershipListQuery['manageType'] | null) ?? 'all',
    teamId: params.get('team') ?? undefined,
  };
  return { organizationId: params.get('organization'), query, update };
}

/** /users (administrators): a group's members, paged, sortable and filterable; invite, change roles, remove. */
export function UsersPage() {
  const { t } = useTranslation();
  const { organizations, current } = useCurrentOrganization();
  const { organizationId, query, update } = useListState();
  const manageable = (organizations.data?.data ?? []).filter((group) => group.userCapabilities.canSeeMemberList);
  const selected =
    manageable.find((group) => group.id === organizationId) ??
    manageable.find((group) => group.id === current?.id) ??
    manageable[0];
  const [filterText, setFilterText] = useState(query.filterValue ?? '');
  const applyFilter = useDebouncedCallback((value: string) => update({ filter: value, page: null }), 300);
  const members = useMemberships(selected?.id, query);
  const changeRole = useUpdateMember(selected?.id ?? '');

  const sortBy = (field: SortField) =>
    update({
      sort: field,
      direction: query.field === field && query.direction === 'asc' ? 'desc' : 'asc',
      page: null,
    });
  const sortIcon = (field: SortField) =>
    query.field !== field ? (
      <IconSelector size={14} />
    ) : query.direction === 'asc' ? (
      <IconChevronUp size={14} />
    ) : (
      <IconChevronDown size={14} />
    );

  return (
    <Stack gap="xl" data-testid="users-page">
      <PageHeader
        title={t('users.title')}
        description={t('users.description')}
        actions={
          selected?.userCapabilities.canInviteUser && (
            <InviteUserButton organizationId={selected.id} organizationName={selected.name} />
          )
        }
      />
      <Card withBorder radius="lg" padding="lg">
        <Stack gap="md">
          <Group gap="sm" align="flex-end" wrap="wrap">
            <Select
              label={t('users.group')}
              data={manageable.map((group) => ({ value: group.id, label: group.name }))}
              value={selected?.id ?? null}
              onChange={(id) => update({ organization: id, page: null })}
              allowDeselect={false}
              searchable={manageable.length > 5}
              w={320}
              data-testid="users-group"
            />
            <Select
              label={t('users.filterField')}
              data={MEMBERSHIP_FILTER_FIELDS.map((field) => ({ value: field, label: t(`users.fields.${field}`) }))}
              value={query.filterField ?? 'email'}
              onChange={(field) => {
                setFilterText('');
                update({ filterField: field, filter: null, page: null });
              }}
              allowDeselect={false}
              w={160}
              data-testid="users-filter-field"
            />
            {query.filterField === 'role' ? (
              <Select
                label={t('users.filterValue')}
                data={GROUP_ROLES.map((role) => ({ value: role, label: t(`groupAdmin.roles.${role}`) }))}
                value={query.filterValue ?? null}
                onChange={(role) => update({ filter: role, page: null })}
                clearable
                w={260}
                data-testid="users-filter-role"
              />
            ) : (
              <TextInput
                label={t('users.filterValue')}
                leftSection={<IconSearch size={16} />}
                value={filterText}
                onChange={(event) => {
                  setFilterText(event.currentTarget.value);
                  applyFilter(event.currentTarget.value);
                }}
                w={260}
                data-testid="users-filter-value"
              />
            )}
            <Select
              label={t('users.teamFilter')}
              data={members.data?.teams ?? []}
              value={query.teamId ?? null}
              onChange={(team) => update({ team, page: null })}
              clearable
              placeholder={t('users.allTeams')}
              w={200}
              data-testid="users-filter-team"
            />
            <SegmentedControl
              data={MANAGE_TYPES.map((type) => ({ value: type, label: t(`users.manage.${type}`) }))}
              value={query.manageType}
              onChange={(type) => update({ manage: type === 'all' ? null : type, page: null })}
              data-testid="users-manage-type"
            />
          </Group>
          {members.isError ? (
            <LoadErrorAlert
              title={t('users.loadFailed')}
              error={members.error}
              retryLabel={t('organizations.retry')}
              onRetry={() => members.refetch()}
              testId="users-error"
            />
          ) : members.isPending || selected == null ? (
            <Skeleton height={320} data-testid="users-loading" />
          ) : members.data.total === 0 ? (
            <Text c="dimmed" ta="center" py="xl" data-testid="users-empty">
              {t('users.empty')}
            </Text>
          ) : (
            <>
              {/* Fits the content width of a 1366-px screen beside the menu (about 1000 px): long addresses and names
                  wrap rather than push Status and the row's actions out of sight; narrower screens scroll. */}
              <Table.ScrollContainer minWidth={920}>
                <Table striped highlightOnHover data-testid="users-table" aria-busy={members.isFetching}>
                  <Table.Thead>
                    <Table.Tr>
                      {COLUMNS.map((field) => (
                        <Table.Th key={field}>
                          <UnstyledButton onClick={() => sortBy(field)} data-testid={`users-sort-${field}`}>
                            <Group gap={4} wrap="nowrap">
                              <Text fw={600} size="sm">
                                {t(`users.fields.${field}`)}
                              </Text>
                              {sortIcon(field)}
                            </Group>
                          </UnstyledButton>
                        </Table.Th>
                      ))}
                      <Table.Th>{t('users.status')}</Table.Th>
                      <Table.Th aria-label={t('users.actionsHeader')} />
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {members.data.data.map((member) => (
                      <Table.Tr key={member.accountId} data-testid="users-row" data-email={member.email}>
                        <Table.Td style={WRAP_ANYWHERE}>{member.email}</Table.Td>
                        <Table.Td style={WRAP_ANYWHERE}>{member.firstName}</Table.Td>
                        <Table.Td style={WRAP_ANYWHERE}>{member.lastName}</Table.Td>
                        <Table.Td>
                          <Select
                            size="xs"
                            w={140}
                            data={GROUP_ROLES.map((role) => ({ value: role, label: t(`groupAdmin.roles.${role}`) }))}
                            value={member.roles[0] ?? null}
                            allowDeselect={false}
                            disabled={!selected.userCapabilities.canRemoveMember || changeRole.isPending}
                            onChange={(role) =>
                              role && changeRole.mutate({ email: member.email, changes: { roles: [role] } })
                            }
                            aria-label={t('users.roleOf', { email: member.email })}
                            data-testid="users-role"
                          />
                        </Table.Td>
                        <Table.Td>
                          <TeamCell
                            organizationId={selected.id}
                            member={member}
                            teams={members.data.teams}
                            disabled={!selected.userCapabilities.canRemoveMember}
                          />
                        </Table.Td>
                        <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(member.createdAt)}</Table.Td>
                        <Table.Td style={{ whiteSpace: 'nowrap' }} data-testid="users-status">
                          {member.invited ? (
                            <Badge color="orange" variant="light" miw="fit-content" data-testid="users-invited">
                              {t('users.invited')}
                            </Badge>
                          ) : (
                            <Badge color="teal" variant="light" miw="fit-content">
                              {t('users.active')}
                            </Badge>
                          )}
                        </Table.Td>
                        <Table.Td>
                          {selected.userCapabilities.canRemoveMember && (
                            <MemberActions organizationId={selected.id} member={member} />
                          )}
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
              <Group justify="space-between">
                <Text size="sm" c="dimmed" data-testid="users-total">
                  {t('users.total', { count: members.data.total })}
                </Text>
                <Pagination
                  total={Math.max(1, Math.ceil(members.data.total / MEMBERSHIP_PAGE_SIZE))}
                  value={query.page ?? 1}
                  onChange={(page) => update({ page: String(page) })}
                />
              </Group>
            </>
          )}
          {changeRole.isError && (
            <Text c="red" size="sm" data-testid="users-role-error">
              {errorText(changeRole.error, t)}
            </Text>
          )}
        </Stack>
      </Card>
    </Stack>
  );
}
