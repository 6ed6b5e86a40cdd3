import {
  Anchor,
  Badge,
  Button,
  Card,
  DataList,
  Divider,
  Group,
  List,
  Skeleton,
  Stack,
  Switch,
  Text,
  Title,
} from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { formatGigabytes, type Contract } from '@pathology/contract';
import { IconEdit, IconShieldCheck, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCatalogueName } from '../../i18n/catalogue-names.ts';
import { errorText } from '../../i18n/error-text.ts';
import { ContractFormModal } from './ContractFormModal.tsx';
import { ProprietorsPanel } from './ProprietorsPanel.tsx';
import { useContractAuthentication, useContractOrganizations, useDeleteContract } from './contracts.queries.ts';

function ContractGroups({ contract }: { contract: Contract }) {
  const { t, i18n } = useTranslation();
  const groups = useContractOrganizations(contract.id, true);
  if (groups.isPending) return <Skeleton height={40} />;
  if (groups.isError || groups.data.data.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('contracts.groups.none')}
      </Text>
    );
  }
  return (
    <List size="sm" spacing={4} data-testid="contract-groups">
      {groups.data.data.map((group) => (
        <List.Item key={group.id}>
          <Anchor component={Link} to={`/organizations/${group.id}`} size="sm">
            {group.name}
          </Anchor>{' '}
          <Text span size="xs" c="dimmed">
            {formatGigabytes(group.totalBytes, i18n.language)}
            {group.storageLimitGb != null && ` / ${group.storageLimitGb} GB`}
          </Text>
        </List.Item>
      ))}
    </List>
  );
}

/** One contract: its fields, the provider's authentication, proprietors and groups, with the caller's actions. */
export function ContractCard({ contract }: { contract: Contract }) {
  const { t } = useTranslation();
  const catalogueName = useCatalogueName();
  const [editing, setEditing] = useState(false);
  const capabilities = contract.userCapabilities;
  const authentication = useContractAuthentication(contract.id);
  const remove = useDeleteContract();
  const unlimited = t('contracts.unlimited');
  const rows: [string, string][] = [
    [t('contracts.fields.plan'), catalogueName('plans', contract.plan)],
    [t('contracts.fields.period'), `${contract.startDate} – ${contract.endDate ?? ''}`],
    [t('contracts.fields.contractorName'), contract.contractorName],
    [
      t('contracts.fields.address'),
      [contract.countryCode, contract.postalCode, contract.address].filter(Boolean).join(' '),
    ],
    [t('contracts.fields.tel'), contract.tel ?? ''],
    [t('contracts.fields.emergencyContact'), contract.emergencyContact ?? ''],
    [t('contracts.fields.billingContact'), contract.billingContact ?? ''],
    [
      t('contracts.fields.maxOrganizations'),
      `${contract.organizationCount} / ${contract.maxOrganizations ?? unlimited}`,
    ],
    [
      t('contracts.fields.storageLimitGb'),
      contract.storageLimitGb == null ? unlimited : `${contract.storageLimitGb} GB`,
    ],
  ];

  const confirmDelete = () =>
    modals.openConfirmModal({
      title: t('contracts.delete.title'),
      children: <Text size="sm">{t('contracts.delete.lead', { name: contract.name })}</Text>,
      labels: { confirm: t('contracts.delete.confirm'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () =>
        remove.mutate(contract.id, {
          onSuccess: () =>
            notifications.show({ color: 'teal', message: t('contracts.delete.done', { name: contract.name }) }),
          onError: (error) => notifications.show({ color: 'red', message: errorText(error, t) }),
        }),
    });

  return (
    <Card withBorder radius="lg" padding="lg" data-testid="contract-card" data-contract-id={contract.id}>
      <Stack gap="md">
        <Group justify="space-between" align="flex-start">
          <Stack gap={4}>
            <Title order={3} fz="h4" data-testid="contract-name">
              {contract.name}
            </Title>
            {contract.authenticatedAt ? (
              <Badge color="teal" variant="light" leftSection={<IconShieldCheck size={12} />} tt="none">
                {t('contracts.authenticated')}
              </Badge>
            ) : (
              <Badge color="gray" variant="light" tt="none">
                {t('contracts.notAuthenticated')}
              </Badge>
            )}
          </Stack>
          <Group gap="xs">
            {capabilities.canEdit && (
              <Button
                variant="light"
                size="xs"
                leftSection={<IconEdit size={14} />}
                onClick={() => setEditing(true)}
                data-testid="contract-edit"
              >
                {t('contracts.edit')}
              </Button>
            )}
            {capabilities.canDelete && (
              <Button
                variant="light"
                color="red"
                size="xs"
                leftSection={<IconTrash size={14} />}
                onClick={confirmDelete}
                data-testid="contract-delete"
              >
                {t('contracts.delete.button')}
              </Button>
            )}
          </Group>
        </Group>
        <DataList withDivider labelWidth={170} gap="xs">
          {rows.map(([label, value]) => (
            <DataList.Item key={label}>
              <DataList.ItemLabel c="dimmed">{label}</DataList.ItemLabel>
              <DataList.ItemValue>{value}</DataList.ItemValue>
            </DataList.Item>
          ))}
        </DataList>
        {capabilities.canDelete && (
          <Switch
            label={t('contracts.authenticate')}
            checked={contract.authenticatedAt != null}
            disabled={authentication.isPending}
            onChange={(event) => authentication.mutate(event.currentTarget.checked)}
            data-testid="contract-authenticate"
          />
        )}
        <Divider label={t('contracts.proprietors.title')} labelPosition="left" />
        <ProprietorsPanel contract={contract} />
        <Divider label={t('contracts.groups.title')} labelPosition="left" />
        <ContractGroups contract={contract} />
      </Stack>
      <ContractFormModal contract={contract} opened={editing} onClose={() => setEditing(false)} />
    </Card>
  );
}
