import { Avatar, Group, Menu, Stack, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useAuth } from 'react-oidc-context';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  IconCheck,
  IconChevronDown,
  IconLanguage,
  IconList,
  IconLogout,
  IconMail,
  IconShieldCheck,
  IconUser,
} from '@tabler/icons-react';
import { useAccount, useAccountRoles } from '../../features/account/account.queries.ts';
import { accountName, initials } from '../../features/account/person-name.ts';
import { LANGUAGES, changeLanguage, currentLanguage } from '../../i18n/index.ts';
import { useSignOut } from '../auth/useSignOut.ts';
import { AiUseStatementModal } from './AiUseStatementModal.tsx';

/** The signed-in user's name: from GET accounts/me, else (while it loads) from the ID token. */
function useDisplayName(): { name: string; email: string; avatarUrl: string | null } {
  const { i18n } = useTranslation();
  const auth = useAuth();
  const account = useAccount();
  if (account.data) {
    return {
      name: accountName(account.data, i18n.language),
      email: account.data.email,
      avatarUrl: account.data.avatarUrl,
    };
  }
  const profile = auth.user?.profile;
  return { name: profile?.name ?? profile?.email ?? '', email: profile?.email ?? '', avatarUrl: null };
}

export function UserMenu() {
  const { t } = useTranslation();
  const signOut = useSignOut();
  const { name, email, avatarUrl } = useDisplayName();
  const [statementOpened, statement] = useDisclosure(false);
  const language = currentLanguage();
  const isSuperUser = useAccountRoles().data?.checks.isSuperUser === true;

  return (
    <>
      <Menu width={260} position="bottom-end" shadow="md" radius="md" withArrow>
        <Menu.Target>
          <UnstyledButton
            aria-label={t('userMenu.label')}
            data-testid="user-menu-button"
            px={6}
            py={4}
            style={{ borderRadius: 'var(--mantine-radius-md)' }}
          >
            <Group gap="xs" wrap="nowrap">
              <Avatar src={avatarUrl} alt="" color="violet" radius="xl" size={34}>
                {initials(name)}
              </Avatar>
              <Stack gap={0} visibleFrom="lg" maw={180}>
                <Text size="sm" fw={600} lh={1.3} truncate="end" data-testid="user-menu-name">
                  {name}
                </Text>
                <Text size="xs" c="dimmed" lh={1.3} truncate="end">
                  {email}
                </Text>
              </Stack>
              <IconChevronDown size={16} />
            </Group>
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown data-testid="user-menu">
          <Menu.Label>{t('userMenu.signedInAs')}</Menu.Label>
          <Text size="sm" fw={600} px="sm" truncate="end">
            {name}
          </Text>
          <Text size="xs" c="dimmed" px="sm" pb="xs" truncate="end">
            {email}
          </Text>
          <Menu.Divider />
          <Menu.Item
            component={Link}
            to="/my-account"
            leftSection={<IconUser size={16} />}
            data-testid="user-menu-account"
          >
            {t('userMenu.myAccount')}
          </Menu.Item>
          <Menu.Item
            leftSection={<IconShieldCheck size={16} />}
            onClick={statement.open}
            data-testid="user-menu-ai-statement"
          >
            {t('userMenu.aiStatement')}
          </Menu.Item>
          {isSuperUser && (
            <>
              <Menu.Item
                component={Link}
                to="/feature-list"
                leftSection={<IconList size={16} />}
                data-testid="user-menu-feature-list"
              >
                {t('userMenu.featureList')}
              </Menu.Item>
              <Menu.Item
                component={Link}
                to="/outbox"
                leftSection={<IconMail size={16} />}
                data-testid="user-menu-outbox"
              >
                {t('userMenu.outbox')}
              </Menu.Item>
            </>
          )}
          <Menu.Divider />
          <Menu.Label>
            <Group gap={6}>
              <IconLanguage size={14} />
              {t('language.label')}
            </Group>
          </Menu.Label>
          {LANGUAGES.map((option) => (
            <Menu.Item
              key={option}
              role="menuitemradio"
              aria-checked={option === language}
              lang={option}
              rightSection={option === language ? <IconCheck size={16} /> : undefined}
              onClick={() => void changeLanguage(option)}
              data-testid={`language-${option}`}
            >
              {t(`language.${option}`)}
            </Menu.Item>
          ))}
          <Menu.Divider />
          <Menu.Item
            color="red"
            leftSection={<IconLogout size={16} />}
            onClick={() => void signOut()}
            data-testid="user-menu-sign-out"
          >
            {t('userMenu.signOut')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <AiUseStatementModal opened={statementOpened} onClose={statement.close} />
    </>
  );
}
