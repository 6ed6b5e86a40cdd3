import { Card, Group, Progress, Stack, Text, Title } from '@mantine/core';
import { BYTES_PER_GB, formatGigabytes, type Organization } from '@pathology/contract';
import { useTranslation } from 'react-i18next';

/** Used storage split as part 3 §3 names it (original, pyramidal, attachments), against the limit when there is one. */
export function StorageCard({ organization }: { organization: Organization }) {
  const { t, i18n } = useTranslation();
  const { usedStorage, storageLimitGb } = organization;
  const limitBytes = storageLimitGb == null ? null : storageLimitGb * BYTES_PER_GB;
  const share = (bytes: number) => (limitBytes ? Math.min(100, (bytes / limitBytes) * 100) : 0);
  const full = limitBytes != null && usedStorage.totalBytes >= limitBytes * 0.9;
  const parts = [
    { key: 'original', bytes: usedStorage.originalBytes, color: 'violet' },
    { key: 'pyramidal', bytes: usedStorage.pyramidalBytes, color: 'grape' },
    { key: 'attachments', bytes: usedStorage.attachmentBytes, color: 'teal' },
  ] as const;
  return (
    <Card withBorder radius="lg" padding="lg" data-testid="organization-storage">
      <Stack gap="sm">
        <Title order={3} fz="h5">
          {t('groupAdmin.storage.title')}
        </Title>
        <Group justify="space-between" align="baseline">
          <Text fz="xl" fw={700} data-testid="organization-storage-used">
            {formatGigabytes(usedStorage.totalBytes, i18n.language)}
          </Text>
          <Text size="sm" c={full ? 'red' : 'dimmed'} data-testid="organization-storage-limit">
            {storageLimitGb == null
              ? t('groupAdmin.storage.noLimit')
              : t('groupAdmin.storage.ofLimit', { limit: formatGigabytes(limitBytes!, i18n.language) })}
          </Text>
        </Group>
        {limitBytes != null && (
          <Progress.Root size="lg" aria-label={t('groupAdmin.storage.title')}>
            {parts.map((part) => (
              <Progress.Section key={part.key} value={share(part.bytes)} color={part.color} />
            ))}
          </Progress.Root>
        )}
        <Stack gap={4}>
          {parts.map((part) => (
            <Group key={part.key} justify="space-between">
              <Group gap={6}>
                <div
                  style={{ width: 10, height: 10, borderRadius: 2, background: `var(--mantine-color-${part.color}-6)` }}
                />
                <Text size="sm">{t(`groupAdmin.storage.${part.key}`)}</Text>
              </Group>
              <Text size="sm" c="dimmed" data-testid={`organization-storage-${part.key}`}>
                {formatGigabytes(part.bytes, i18n.language)}
              </Text>
            </Group>
          ))}
        </Stack>
      </Stack>
    </Card>
  );
}
