import type { Case, CaseGrant, GroupRole } from '@pathology/contract';
import { GROUP_ROLES } from '@pathology/contract';
import {
  ActionIcon,
  Alert,
  Badge,
  EmptyState,
  Group,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { IconAlertCircle, IconLock, IconTrash, IconUser, IconUsersGroup } from '@tabler/icons-react';
import { errorText } from '../../i18n/error-text.ts';
import { AddGrantForm } from './AddGrantForm.tsx';
import { useDeleteGrant, useGrants, useUpdateGrant } from './case-detail.queries.ts';

function isRole(value: string | null): value is GroupRole {
  return GROUP_ROLES.some((role) => role === value);
}

/** Permissions tab: who has a grant on the case and with which role; only users who may share change them. */
export function CasePermissionsTab({ item }: { item: Case }) {
  const { t } = useTranslation();
  const canShare = item.userCapabilities.canShare;
  const grants = useGrants(item.id, canShare);
  const update = useUpdateGrant(item.id);
  const remove = useDeleteGrant(item.id);

  if (!canShare) {
    return (
      <Alert
        color="gray"
        variant="light"
        icon={<IconLock size={18} />}
        title={t('caseDetail.permissions.title')}
        data-testid="case-permissions-readonly"
      >
        {t('caseDetail.permissions.readOnly')}
      </Alert>
    );
  }

  const updated = () => notifications.show({ color: 'teal', message: t('caseDetail.permissions.updated') });
  const failed = (error: Error) =>
    notifications.show({ color: 'red', title: t('caseDetail.permissions.failed'), message: errorText(error, t) });
  const roleOptions = GROUP_ROLES.map((role) => ({ value: role, label: t(`caseDetail.roles.${role}`) }));

  const changeRole = (grant: CaseGrant, role: string | null) => {
    if (!isRole(role) || role === grant.grantedRole) return;
    update.mutate({ grantId: grant.id, grantedRole: role }, { onSuccess: updated, onError: failed });
  };

  const confirmRemove = (grant: CaseGrant) =>
    modals.openConfirmModal({
      title: t('caseDetail.permissions.removeTitle'),
      centered: true,
      children: (
        <Text size="sm">
          {t('caseDetail.permissions.removeQuestion', { name: grant.granteeName ?? grant.granteeId })}
        </Text>
      ),
      labels: { confirm: t('caseDetail.permissions.remove'), cancel: t('common.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'case-grant-remove-confirm' },
      onConfirm: () => remove.mutate(grant.id, { onSuccess: updated, onError: failed }),
    });

  return (
    <Stack gap="lg" data-testid="case-permissions">
      <Stack gap={4}>
        <Title order={3} fz="lg">
          {t('caseDetail.permissions.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('caseDetail.permissions.description')}
        </Text>
      </Stack>
      {grants.isPending && <Skeleton height={120} radius="md" />}
      {grants.isError && (
        <Alert
          color="red"
          variant="light"
          icon={<IconAlertCircle size={20} />}
          title={t('caseDetail.permissions.loadFailed')}
        >
          {errorText(grants.error, t)}
        </Alert>
      )}
      {grants.isSuccess && grants.data.data.length === 0 && (
        <EmptyState
          variant="light"
          size="sm"
          icon={<IconLock size={24} />}
          title={t('caseDetail.permissions.empty')}
          data-testid="case-grants-empty"
        />
      )}
      {grants.isSuccess && grants.data.data.length > 0 && (
        <Table.ScrollContainer minWidth={520}>
          <Table verticalSpacing="sm" highlightOnHover data-testid="case-grants">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('caseDetail.permissions.grantee')}</Table.Th>
                <Table.Th w={200}>{t('caseDetail.permissions.role')}</Table.Th>
                <Table.Th w={56}>
                  <VisuallyHidden>{t('caseDetail.permissions.remove')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {grants.data.data.map((grant) => (
                <Table.Tr key={grant.id} data-testid="case-grant">
                  <Table.Td>
                    <Group gap="sm" wrap="nowrap">
                      {grant.granteeType === 'organization' ? <IconUsersGroup size={18} /> : <IconUser size={18} />}
                      <Stack gap={0} miw={0}>
                        <Text size="sm" fw={500} data-testid="case-grant-name">
                          {grant.granteeName ?? grant.granteeEmail ?? grant.granteeId}
                        </Text>
                        {grant.granteeEmail && grant.granteeEmail !== grant.granteeName && (
                          <Text size="xs" c="dimmed">
                            {grant.granteeEmail}
                          </Text>
                        )}
                      </Stack>
                      {grant.granteeType === 'organization' && (
                        <Badge size="xs" variant="light" color="gray" radius="sm">
                          {t('caseDetail.permissions.group')}
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Select
                      size="xs"
                      data={roleOptions}
                      value={grant.grantedRole}
                      onChange={(role) => changeRole(grant, role)}
                      allowDeselect={false}
                      aria-label={t('caseDetail.permissions.roleOf', { name: grant.granteeName ?? grant.granteeId })}
                      data-testid="case-grant-role"
                    />
                  </Table.Td>
                  <Table.Td>
                    <Tooltip label={t('caseDetail.permissions.remove')}>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        onClick={() => confirmRemove(grant)}
                        aria-label={t('caseDetail.permissions.remove')}
                        data-testid="case-grant-remove"
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Tooltip>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <AddGrantForm caseId={item.id} roleOptions={roleOptions} onAdded={updated} />
    </Stack>
  );
}
