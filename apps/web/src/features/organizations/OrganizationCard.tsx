import { ActionIcon, Badge, Box, Card, Group, Stack, Text, ThemeIcon, Tooltip, UnstyledButton } from '@mantine/core';
import { Link } from 'react-router';
import type { OrganizationSummary } from '@pathology/contract';
import { useTranslation } from 'react-i18next';
import {
  IconBuilding,
  IconCheck,
  IconChevronRight,
  IconRosetteDiscountCheck,
  IconSparkles,
  IconUsersGroup,
} from '@tabler/icons-react';

interface OrganizationCardProps {
  organization: OrganizationSummary;
  current: boolean;
  onSelect: () => void;
}

/**
 * One group of the list: choosing the card makes it the current group; the arrow in its corner opens the group's
 * page (settings, storage, members). The arrow sits beside the card's button, not inside it, so each is one control.
 */
export function OrganizationCard({ organization, current, onSelect }: OrganizationCardProps) {
  const { t } = useTranslation();
  return (
    <Box pos="relative" h="100%">
      <CardButton organization={organization} current={current} onSelect={onSelect} />
      <Tooltip label={t('groupAdmin.open')} withArrow>
        <ActionIcon
          component={Link}
          to={`/organizations/${organization.id}`}
          variant="subtle"
          size="lg"
          radius="xl"
          pos="absolute"
          top={12}
          right={12}
          aria-label={t('groupAdmin.openNamed', { name: organization.name })}
          data-testid="organization-open"
        >
          <IconChevronRight size={18} />
        </ActionIcon>
      </Tooltip>
    </Box>
  );
}

function CardButton({ organization, current, onSelect }: OrganizationCardProps) {
  const { t } = useTranslation();
  return (
    <UnstyledButton
      onClick={onSelect}
      aria-pressed={current}
      data-testid="organization-card"
      data-organization-id={organization.id}
      style={{ borderRadius: 'var(--mantine-radius-lg)', display: 'block', height: '100%' }}
    >
      <Card
        withBorder
        radius="lg"
        padding="lg"
        h="100%"
        shadow={current ? 'sm' : 'xs'}
        style={{
          borderColor: current ? 'var(--mantine-color-violet-5)' : undefined,
          boxShadow: current ? '0 0 0 1px var(--mantine-color-violet-5)' : undefined,
        }}
      >
        <Stack gap="sm" h="100%">
          <Group gap="sm" wrap="nowrap" align="flex-start" pr={36}>
            <ThemeIcon size={40} radius="md" variant={current ? 'filled' : 'light'} style={{ flexShrink: 0 }}>
              <IconUsersGroup size={22} />
            </ThemeIcon>
            <Stack gap={2} miw={0}>
              <Text fw={650} lh={1.3} style={{ overflowWrap: 'anywhere' }} data-testid="organization-name">
                {organization.name}
              </Text>
              <Group gap={4} wrap="nowrap" c="dimmed">
                <IconBuilding size={14} style={{ flexShrink: 0 }} />
                <Text
                  size="xs"
                  truncate="end"
                  aria-label={t('organizations.contract', { name: organization.contractName })}
                >
                  {organization.contractName}
                </Text>
              </Group>
            </Stack>
          </Group>
          {organization.description && (
            <Text size="sm" c="dimmed" lineClamp={2}>
              {organization.description}
            </Text>
          )}
          {(current || organization.predictionEnabled || organization.isProvider) && (
            <Group gap={6} mt="auto">
              {current && (
                <Badge
                  variant="outline"
                  leftSection={<IconCheck size={12} />}
                  tt="none"
                  data-testid="organization-current"
                >
                  {t('organizations.badges.current')}
                </Badge>
              )}
              {organization.predictionEnabled && (
                <Badge
                  variant="gradient"
                  gradient={{ from: 'violet.6', to: 'grape.5', deg: 135 }}
                  leftSection={<IconSparkles size={12} />}
                  title={t('organizations.badges.aiTitle')}
                  data-testid="organization-ai-badge"
                >
                  {t('organizations.badges.ai')}
                </Badge>
              )}
              {organization.isProvider && (
                <Badge
                  variant="light"
                  color="teal"
                  leftSection={<IconRosetteDiscountCheck size={12} />}
                  tt="none"
                  title={t('organizations.badges.providerTitle')}
                  data-testid="organization-provider-badge"
                >
                  {t('organizations.badges.provider')}
                </Badge>
              )}
            </Group>
          )}
        </Stack>
      </Card>
    </UnstyledButton>
  );
}
