import { Button, Group, List, Modal, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { IconCircleCheck, IconCircleX, IconShieldCheck } from '@tabler/icons-react';

interface AiUseStatementModalProps {
  opened: boolean;
  onClose: () => void;
}

function PurposeList({
  title,
  items,
  icon,
  color,
  testId,
}: {
  title: string;
  items: string[];
  icon: ReactNode;
  color: string;
  testId: string;
}) {
  return (
    <Stack gap="xs" data-testid={testId}>
      <Title order={3} fz="md">
        {title}
      </Title>
      <List
        spacing="xs"
        center
        icon={
          <ThemeIcon color={color} variant="light" size={26} radius="xl">
            {icon}
          </ThemeIcon>
        }
      >
        {items.map((item) => (
          <List.Item key={item}>{item}</List.Item>
        ))}
      </List>
    </Stack>
  );
}

/** Spec part 1 §1: what the AI functions may and may not be used for. */
export function AiUseStatementModal({ opened, onClose }: AiUseStatementModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon variant="light" size={32} radius="md">
            <IconShieldCheck size={18} />
          </ThemeIcon>
          {t('aiStatement.title')}
        </Group>
      }
      size="lg"
      radius="lg"
      padding="lg"
      centered
      styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }}
    >
      <Stack gap="lg" data-testid="ai-statement">
        <Text c="dimmed">{t('aiStatement.intro')}</Text>
        <PurposeList
          title={t('aiStatement.accepted.title')}
          items={[t('aiStatement.accepted.education'), t('aiStatement.accepted.research')]}
          icon={<IconCircleCheck size={16} />}
          color="teal"
          testId="ai-statement-accepted"
        />
        <PurposeList
          title={t('aiStatement.excluded.title')}
          items={[t('aiStatement.excluded.medical'), t('aiStatement.excluded.body')]}
          icon={<IconCircleX size={16} />}
          color="red"
          testId="ai-statement-excluded"
        />
        <Group justify="flex-end">
          <Button onClick={onClose}>{t('aiStatement.close')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
