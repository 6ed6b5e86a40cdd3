import { Badge, Card, Group, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import {
  IconBell,
  IconBrain,
  IconBuildingBank,
  IconFileSpreadsheet,
  IconFolders,
  IconLanguage,
  IconPaperclip,
  IconPencil,
  IconPhoto,
  IconSearch,
  IconShieldLock,
  IconTags,
  IconUpload,
  IconUsers,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useQuery } from '@tanstack/react-query';
import { healthQuery } from './system.queries.ts';

/** The product's features as a super user explains them to a lab (part 3 §2 feature list), by area. */
const FEATURES = [
  { key: 'cases', icon: IconFolders },
  { key: 'search', icon: IconSearch },
  { key: 'labels', icon: IconTags },
  { key: 'uploads', icon: IconUpload },
  { key: 'viewer', icon: IconPhoto },
  { key: 'drawings', icon: IconPencil },
  { key: 'ai', icon: IconBrain },
  { key: 'attachments', icon: IconPaperclip },
  { key: 'groups', icon: IconUsers },
  { key: 'contracts', icon: IconBuildingBank },
  { key: 'notices', icon: IconBell },
  { key: 'csv', icon: IconFileSpreadsheet },
  { key: 'security', icon: IconShieldLock },
  { key: 'languages', icon: IconLanguage },
] as const satisfies readonly { key: string; icon: ComponentType<{ size?: number }> }[];

/** /feature-list (super users): what the product does, and which version this server runs. */
export function FeatureListPage() {
  const { t } = useTranslation();
  const health = useQuery(healthQuery());
  return (
    <Stack gap="xl" data-testid="feature-list">
      <PageHeader
        title={t('featureList.title')}
        description={t('featureList.description')}
        actions={
          <Badge size="lg" variant="light" tt="none" data-testid="feature-list-version">
            {t('featureList.version', { version: health.data?.version ?? '…' })}
          </Badge>
        }
      />
      <SimpleGrid cols={{ base: 1, lg: 2, xl2: 3 }} spacing="md">
        {FEATURES.map(({ key, icon: Icon }) => (
          <Card key={key} withBorder radius="lg" padding="lg" data-testid="feature">
            <Group gap="sm" wrap="nowrap" align="flex-start">
              <ThemeIcon size={38} radius="md" variant="light">
                <Icon size={20} />
              </ThemeIcon>
              <Stack gap={4}>
                <Title order={3} fz="md">
                  {t(`featureList.features.${key}.title`)}
                </Title>
                <Text size="sm" c="dimmed">
                  {t(`featureList.features.${key}.description`)}
                </Text>
              </Stack>
            </Group>
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
