import { SimpleGrid, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader.tsx';
import { ServerStatusCard } from '../system/ServerStatusCard.tsx';

export function OrganizationsPage() {
  const { t } = useTranslation();
  return (
    <Stack gap="xl">
      <PageHeader title={t('organizations.title')} description={t('organizations.description')} />
      <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }} spacing="lg">
        <ServerStatusCard />
      </SimpleGrid>
    </Stack>
  );
}
