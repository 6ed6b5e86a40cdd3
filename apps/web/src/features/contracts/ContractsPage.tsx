import { Alert, Button, SimpleGrid, Skeleton, Stack } from '@mantine/core';
import { IconFileText, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadErrorAlert } from '../../components/LoadErrorAlert.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useAccountRoles } from '../account/account.queries.ts';
import { ContractCard } from './ContractCard.tsx';
import { ContractFormModal } from './ContractFormModal.tsx';
import { useContracts } from './contracts.queries.ts';

/** /contracts: proprietors see and edit theirs, the provider's employees create, super users see all (part 3 §2). */
export function ContractsPage() {
  const { t } = useTranslation();
  const roles = useAccountRoles();
  const contracts = useContracts();
  const [creating, setCreating] = useState(false);

  return (
    <Stack gap="xl" data-testid="contracts-page">
      <PageHeader
        title={t('contracts.title')}
        description={t('contracts.description')}
        actions={
          roles.data?.checks.canCreateContract && (
            <Button
              leftSection={<IconPlus size={16} />}
              onClick={() => setCreating(true)}
              data-testid="contract-create"
            >
              {t('contracts.create')}
            </Button>
          )
        }
      />
      {contracts.isPending ? (
        <Skeleton height={360} radius="lg" />
      ) : contracts.isError ? (
        <LoadErrorAlert
          title={t('contracts.loadFailed')}
          error={contracts.error}
          retryLabel={t('organizations.retry')}
          onRetry={() => contracts.refetch()}
          testId="contracts-error"
        />
      ) : contracts.data.data.length === 0 ? (
        <Alert icon={<IconFileText size={18} />} color="gray" data-testid="contracts-empty">
          {t('contracts.empty')}
        </Alert>
      ) : (
        <SimpleGrid cols={{ base: 1, xl2: 2 }} spacing="lg" data-testid="contracts-list">
          {contracts.data.data.map((contract) => (
            <ContractCard key={contract.id} contract={contract} />
          ))}
        </SimpleGrid>
      )}
      <ContractFormModal contract={null} opened={creating} onClose={() => setCreating(false)} />
    </Stack>
  );
}
