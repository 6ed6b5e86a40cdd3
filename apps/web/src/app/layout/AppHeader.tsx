import { ActionIcon, Burger, Group, Stack, Text, ThemeIcon, Tooltip, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { IconHelp, IconMicroscope } from '@tabler/icons-react';
import { useHelpUrl } from '../auth/auth-config.queries.ts';
import { NotificationsPopover } from './NotificationsPopover.tsx';
import { UploadsPopover } from './UploadsPopover.tsx';
import { UserMenu } from './UserMenu.tsx';

interface AppHeaderProps {
  navOpened: boolean;
  onToggleNav: () => void;
}

/** The operator's help pages (HELP_URL); nothing where none are set, rather than a link to nowhere. */
function HelpLink() {
  const { t } = useTranslation();
  const helpUrl = useHelpUrl();
  if (!helpUrl) return null;
  return (
    <Tooltip label={t('header.help')} withArrow>
      <ActionIcon
        component="a"
        href={helpUrl}
        target="_blank"
        rel="noopener noreferrer"
        variant="subtle"
        color="gray"
        size="lg"
        radius="md"
        aria-label={t('header.helpLabel')}
        data-testid="help-link"
      >
        <IconHelp size={22} />
      </ActionIcon>
    </Tooltip>
  );
}

export function AppHeader({ navOpened, onToggleNav }: AppHeaderProps) {
  const { t } = useTranslation();
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap">
      <Group gap="sm" wrap="nowrap">
        <Burger opened={navOpened} onClick={onToggleNav} hiddenFrom="md" size="sm" aria-label={t('nav.toggle')} />
        <UnstyledButton component={Link} to="/" aria-label={t('app.name')}>
          <Group gap="sm" wrap="nowrap">
            <ThemeIcon
              size={36}
              radius="md"
              variant="gradient"
              gradient={{ from: 'violet.7', to: 'grape.5', deg: 135 }}
            >
              <IconMicroscope size={22} />
            </ThemeIcon>
            <Stack gap={0} visibleFrom="md">
              <Text fw={700} size="md" lh={1.2} style={{ whiteSpace: 'nowrap' }}>
                {t('app.name')}
              </Text>
              <Text size="xs" c="dimmed" lh={1.2}>
                {t('app.tagline')}
              </Text>
            </Stack>
          </Group>
        </UnstyledButton>
      </Group>
      <Group gap={6} wrap="nowrap">
        <HelpLink />
        <UploadsPopover />
        <NotificationsPopover />
        <UserMenu />
      </Group>
    </Group>
  );
}
