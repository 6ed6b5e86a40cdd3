import { Button, Group, Skeleton, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import type { CaseSearchResponse } from '@pathology/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pageRange } from './list-state.ts';
import { IconPlus, IconTransfer } from '@tabler/icons-react';

/** Title with "x-y of total" and the Case transfer / Create Case buttons. */
export function CaseListHeader({
  data,
  page,
  limit,
  canTransfer,
  canCreate,
  uploadAction,
}: {
  data: CaseSearchResponse | undefined;
  page: number;
  limit: number;
  canTransfer: boolean;
  canCreate: boolean;
  /** The "Add Images" button opening the upload dialog, when the user may add images in the group. */
  uploadAction?: ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const number = new Intl.NumberFormat(i18n.language);
  let range: string | undefined;
  if (data) {
    const { from, to } = pageRange(page, limit, data.data.length);
    const total = data.totalCapped
      ? t('caseList.totalCapped', { total: number.format(data.total) })
      : number.format(data.total);
    range =
      from === 0
        ? t('caseList.rangeEmpty')
        : t('caseList.range', { from: number.format(from), to: number.format(to), total });
  }
  return (
    <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm">
      <Group gap="sm" align="baseline">
        <Title order={2}>{t('caseList.title')}</Title>
        {range ? (
          <Text size="sm" c="dimmed" data-testid="case-list-range">
            {range}
          </Text>
        ) : (
          <Skeleton height={14} width={110} />
        )}
      </Group>
      <Group gap="xs">
        {uploadAction}
        {canTransfer && (
          <Button
            component={Link}
            to="/cases/transfer"
            size="xs"
            variant="default"
            leftSection={<IconTransfer size={15} />}
            data-testid="case-transfer"
          >
            {t('caseList.actions.transfer')}
          </Button>
        )}
        {canCreate && (
          <Button
            component={Link}
            to="/cases/new"
            size="xs"
            leftSection={<IconPlus size={15} />}
            data-testid="create-case"
          >
            {t('caseList.actions.createCase')}
          </Button>
        )}
      </Group>
    </Group>
  );
}
