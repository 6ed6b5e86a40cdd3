import { Burger, Group, Stack, Text, ThemeIcon, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { IconMicroscope } from '../../components/icons.tsx';
import { LanguageSwitch } from './LanguageSwitch.tsx';

interface AppHeaderProps {
  navOpened: boolean;
  onToggleNav: () => void;
}

export function AppHeader({ navOpened, onToggleNav }: AppHeaderProps) {
  const { t } = useTranslation();
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap">
      <Group gap="sm" wrap="nowrap">
        <Burger opened={navOpened} onClick={onToggleNav} hiddenFrom="sm" size="sm" aria-label={t('nav.toggle')} />
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
            <Stack gap={0}>
              <Text fw={700} size="md" lh={1.2} style={{ whiteSpace: 'nowrap' }}>
                {t('app.name')}
              </Text>
              <Text size="xs" c="dimmed" lh={1.2} visibleFrom="xs">
                {t('app.tagline')}
              </Text>
            </Stack>
          </Group>
        </UnstyledButton>
      </Group>
      {/* Bell, upload progress, help and the user menu join here with authentication. */}
      <Group gap="sm" wrap="nowrap">
        <LanguageSwitch />
      </Group>
    </Group>
  );
}
