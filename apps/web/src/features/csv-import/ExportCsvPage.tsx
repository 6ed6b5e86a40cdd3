import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../i18n/error-text.ts';
import { fetchBinary, saveBlob } from '../case-images/fetch-binary.ts';

const EXPORTS = ['images', 'users', 'attachments'] as const;
type ExportName = (typeof EXPORTS)[number];

/** /export-csv (super users): the images, users and attachments of the installation as CSV files. */
export function ExportCsvPage() {
  const { t } = useTranslation();
  const [busy, setBusy] = useState<ExportName | null>(null);

  const download = async (name: ExportName) => {
    setBusy(name);
    try {
      const blob = await fetchBinary(`export/${name}`, { timeout: false });
      saveBlob(blob, `${name}.csv`);
      notifications.show({ color: 'teal', message: t('csvExport.downloaded', { name: t(`csvExport.names.${name}`) }) });
    } catch (error) {
      notifications.show({ color: 'red', title: t('csvExport.failed'), message: errorText(error, t) });
    } finally {
      setBusy(null);
    }
  };

  return (
    <Stack gap="md" data-testid="export-csv">
      <Title order={1} fz="h2">
        {t('csvExport.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('csvExport.intro')}
      </Text>
      {EXPORTS.map((name) => (
        <Paper key={name} withBorder radius="md" p="md">
          <Group justify="space-between">
            <Stack gap={2}>
              <Text fw={600}>{t(`csvExport.names.${name}`)}</Text>
              <Text size="sm" c="dimmed">
                {t(`csvExport.descriptions.${name}`)}
              </Text>
            </Stack>
            <Button
              leftSection={<IconDownload size={16} />}
              loading={busy === name}
              disabled={busy !== null && busy !== name}
              onClick={() => void download(name)}
              data-testid={`export-${name}`}
            >
              {t('csvExport.download')}
            </Button>
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}
