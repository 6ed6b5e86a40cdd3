import type { Case } from '@pathology/contract';
import { Alert, Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../i18n/error-text.ts';
import { isPickerSearchable } from '../organizations/current-organization.ts';
import { useTransferCase, useTransferableOrganizations } from './case-detail.queries.ts';

interface TransferCaseDialogProps {
  item: Case;
  opened: boolean;
  onClose: () => void;
}

/** Transfer ownership: pick a destination group (POST organizations/transferable/{id}), then confirm. */
export function TransferCaseDialog({ item, opened, onClose }: TransferCaseDialogProps) {
  const { t } = useTranslation();
  const [destination, setDestination] = useState<string | null>(null);
  const groups = useTransferableOrganizations(item.id, opened);
  const transfer = useTransferCase(item.id);

  // Spec part 3 §8: failing to fetch the transferable groups is only logged.
  useEffect(() => {
    if (groups.error) console.warn('Unable to load the transferable groups', groups.error);
  }, [groups.error]);

  const close = () => {
    setDestination(null);
    onClose();
  };

  const submit = () => {
    if (destination == null) return;
    transfer.mutate(destination, {
      onSuccess: (moved) => {
        notifications.show({ color: 'teal', message: t('caseDetail.transfer.done', { caseNumber: moved.caseNumber }) });
        close();
      },
      onError: (error) => {
        notifications.show({ color: 'red', title: t('caseDetail.transfer.failed'), message: errorText(error, t) });
      },
    });
  };

  const options = (groups.data?.data ?? []).map((group) => ({ value: group.id, label: group.name }));
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={t('caseDetail.transfer.title')}
      centered
      data-testid="case-transfer-dialog"
    >
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t('caseDetail.transfer.description', { caseNumber: item.caseNumber, group: item.organizationName })}
        </Text>
        {groups.isSuccess && options.length === 0 ? (
          <Alert variant="light" color="gray" data-testid="case-transfer-none">
            {t('caseDetail.transfer.none')}
          </Alert>
        ) : (
          <Select
            label={t('caseDetail.transfer.destination')}
            placeholder={t(groups.isPending ? 'caseDetail.transfer.loading' : 'caseDetail.transfer.choose')}
            data={options}
            value={destination}
            onChange={setDestination}
            searchable={isPickerSearchable(options.length)}
            allowDeselect={false}
            nothingFoundMessage={t('caseDetail.nothingFound')}
            disabled={groups.isPending || groups.isError}
            error={groups.isError ? t('caseDetail.transfer.unavailable') : undefined}
            comboboxProps={{ withinPortal: true }}
            data-testid="case-transfer-destination"
            data-autofocus
          />
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={close}>
            {t('common.cancel')}
          </Button>
          <Button
            onClick={submit}
            disabled={destination == null}
            loading={transfer.isPending}
            data-testid="case-transfer-confirm"
          >
            {t('caseDetail.transfer.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
