import type { Case } from '@pathology/contract';
import { Badge, Divider, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format-date.ts';
import { IconMessage, IconPaperclip, IconPhoto } from '@tabler/icons-react';

function Fact({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" fw={500}>
        {label}
      </Text>
      <Text component="div" size="sm" data-testid={testId} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Stack>
  );
}

function Count({ icon, label, value, testId }: { icon: ReactNode; label: string; value: number; testId: string }) {
  return (
    <Paper radius="md" p="sm" bg="gray.0">
      <Group gap={6} c="violet.7" wrap="nowrap">
        {icon}
        <Text fw={700} size="lg" data-testid={testId}>
          {value}
        </Text>
      </Group>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
    </Paper>
  );
}

/** The case-information panel: ownership, dates and how much the case holds. */
export function CaseInfoPanel({ item }: { item: Case }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder radius="lg" p="lg" id="case-info" data-testid="case-info">
      <Stack gap="md">
        <Title order={3} fz="md">
          {t('caseDetail.info.title')}
        </Title>
        <SimpleGrid cols={3} spacing="xs" maw={{ base: 480, xl2: 'none' }}>
          <Count
            icon={<IconPhoto size={16} />}
            label={t('caseDetail.tabs.images')}
            value={item.numberOfImages}
            testId="case-info-images"
          />
          <Count
            icon={<IconPaperclip size={16} />}
            label={t('caseDetail.tabs.attachments')}
            value={item.numberOfAttachments}
            testId="case-info-attachments"
          />
          <Count
            icon={<IconMessage size={16} />}
            label={t('caseDetail.tabs.comments')}
            value={item.numberOfComments}
            testId="case-info-comments"
          />
        </SimpleGrid>
        <Divider />
        <SimpleGrid cols={{ base: 2, lg: 5, xl2: 2 }} spacing="md" verticalSpacing="md">
          <Fact label={t('caseDetail.info.group')} testId="case-info-group">
            {item.organizationName}
          </Fact>
          <Fact label={t('caseDetail.info.contract')}>{item.contractName}</Fact>
          <Fact label={t('caseDetail.info.created')}>{formatDateTime(item.createdAt)}</Fact>
          <Fact label={t('caseDetail.info.updated')}>{formatDateTime(item.updatedAt)}</Fact>
          <Fact label={t('caseDetail.info.visibility')}>
            <Badge variant="light" color={item.isPublic ? 'teal' : 'gray'} radius="sm" tt="none" fw={500}>
              {t(item.isPublic ? 'caseDetail.info.public' : 'caseDetail.info.private')}
            </Badge>
          </Fact>
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}
