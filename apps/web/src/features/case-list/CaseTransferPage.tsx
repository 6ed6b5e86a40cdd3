import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Group,
  Modal,
  Paper,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { IconAlertCircle } from '@tabler/icons-react';
import { errorText } from '../../i18n/error-text.ts';
import { useOrganizations } from '../organizations/organizations.queries.ts';
import { useCaseSearch, useTransferableOrganizations, useTransferCases } from './case-list.queries.ts';
import { formatDate } from './list-state.ts';
import { withCaseNumber } from './search-form.ts';

/** Most cases listed for picking at once; narrow with the case-number filter. */
const TRANSFER_PAGE_SIZE = 100;

/** /cases/transfer (administrators): move several cases of one group to another in one step (part 1 §4). */
export function CaseTransferPage() {
  const { t } = useTranslation();
  const organizations = useOrganizations();
  const transferable = useTransferableOrganizations();
  const transfer = useTransferCases();
  const sources = (organizations.data?.data ?? []).filter((o) => o.userCapabilities.canTransferCases);
  const [source, setSource] = useState<string | null>(null);
  const [destination, setDestination] = useState<string | null>(null);
  const [filter, setFilter] = useState('');
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [confirming, setConfirming] = useState(false);
  const sourceId = source ?? sources[0]?.id;
  const cases = useCaseSearch(
    sourceId
      ? {
          query: withCaseNumber([{ field: 'organizationId', operator: 'is', value: sourceId }], filter),
          order: { field: 'caseNumber', direction: 'asc' },
          page: 1,
          limit: TRANSFER_PAGE_SIZE,
        }
      : undefined,
  );
  const destinations = (transferable.data?.data ?? []).filter((o) => o.id !== sourceId);
  const destinationName = destinations.find((o) => o.id === destination)?.name ?? '';
  const rows = cases.data?.data ?? [];

  const toggle = (id: string, checked: boolean) =>
    setSelected((previous) => {
      const next = new Set(previous);
      if (checked) next.add(id);
      else next.delete(id);
      return next;
    });

  const submit = () => {
    if (!sourceId || !destination) return;
    const count = selected.size;
    transfer.mutate(
      { from: sourceId, to: destination, cases: [...selected] },
      {
        onSuccess: () => {
          notifications.show({
            color: 'teal',
            message: t('caseList.transfer.success', { count, group: destinationName }),
          });
          setSelected(new Set());
          setConfirming(false);
        },
        onError: (error) => {
          notifications.show({ color: 'red', title: t('caseList.transfer.failed'), message: errorText(error, t) });
          setConfirming(false);
        },
      },
    );
  };

  return (
    <Stack gap="sm" data-testid="case-transfer-page">
      <Anchor component={Link} to="/cases" size="xs">
        ← {t('caseList.transfer.back')}
      </Anchor>
      <Title order={2}>{t('caseList.transfer.title')}</Title>
      <Text size="sm" c="dimmed">
        {t('caseList.transfer.description')}
      </Text>
      {organizations.isSuccess && sources.length === 0 ? (
        <Alert color="gray" icon={<IconAlertCircle size={20} />}>
          {t('caseList.transfer.noGroups')}
        </Alert>
      ) : (
        <>
          <Group gap="sm" align="flex-end">
            <Select
              size="xs"
              w={260}
              label={t('caseList.transfer.source')}
              data={sources.map((o) => ({ value: o.id, label: o.name }))}
              value={sourceId ?? null}
              onChange={(value) => {
                setSource(value);
                setSelected(new Set());
              }}
              allowDeselect={false}
              data-testid="transfer-source"
            />
            <TextInput
              size="xs"
              w={200}
              label={t('caseList.transfer.filter')}
              value={filter}
              onChange={(event) => setFilter(event.currentTarget.value)}
            />
            <Select
              size="xs"
              w={260}
              label={t('caseList.transfer.destination')}
              data={destinations.map((o) => ({ value: o.id, label: o.name }))}
              value={destination}
              onChange={setDestination}
              data-testid="transfer-destination"
            />
            <Button
              size="xs"
              disabled={selected.size === 0 || !destination}
              onClick={() => setConfirming(true)}
              data-testid="transfer-submit"
            >
              {t('caseList.transfer.submit')}
            </Button>
            <Text size="xs" c="dimmed">
              {t('caseList.transfer.selected', { count: selected.size })}
            </Text>
          </Group>
          <Paper withBorder radius="md">
            {cases.isPending ? (
              <Skeleton height={160} />
            ) : rows.length === 0 ? (
              <Text size="sm" c="dimmed" p="md">
                {t('caseList.transfer.none')}
              </Text>
            ) : (
              <Table verticalSpacing={4} fz="sm" highlightOnHover>
                <Table.Tbody>
                  {rows.map((item) => (
                    <Table.Tr key={item.id}>
                      <Table.Td w={32}>
                        <Checkbox
                          size="xs"
                          aria-label={t('caseList.columns.select', { caseNumber: item.caseNumber })}
                          checked={selected.has(item.id)}
                          disabled={!item.userCapabilities.canTransfer}
                          onChange={(event) => toggle(item.id, event.currentTarget.checked)}
                        />
                      </Table.Td>
                      <Table.Td ff="monospace">{item.caseNumber}</Table.Td>
                      <Table.Td>
                        <Text size="xs" c="dimmed" lineClamp={1}>
                          {item.diagnosis}
                        </Text>
                      </Table.Td>
                      <Table.Td ff="monospace" fz="xs">
                        {formatDate(item.createdAt)}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
          </Paper>
        </>
      )}
      <Modal opened={confirming} onClose={() => setConfirming(false)} title={t('caseList.transfer.confirmTitle')}>
        <Text size="sm">{t('caseList.transfer.confirm', { count: selected.size, group: destinationName })}</Text>
        <Group justify="flex-end" mt="md" gap="xs">
          <Button variant="default" onClick={() => setConfirming(false)}>
            {t('caseList.transfer.cancel')}
          </Button>
          <Button loading={transfer.isPending} onClick={submit} data-testid="transfer-confirm">
            {t('caseList.transfer.submit')}
          </Button>
        </Group>
      </Modal>
    </Stack>
  );
}
