import { EmptyState, Paper, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader.tsx';
import { IconFolders } from '../../components/icons.tsx';

export function CasesPage() {
  const { t } = useTranslation();
  return (
    <Stack gap="xl">
      <PageHeader title={t('cases.title')} />
      <Paper withBorder radius="lg" py={64} px="lg" data-testid="cases-empty">
        <EmptyState
          variant="light"
          size="md"
          icon={<IconFolders size={28} />}
          title={t('cases.empty.title')}
          description={t('cases.empty.description')}
        />
      </Paper>
    </Stack>
  );
}
