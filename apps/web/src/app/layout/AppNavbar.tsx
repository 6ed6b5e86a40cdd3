import { NavLink, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { defaultMenu, isMenuItemActive, type MenuItem } from './menu.ts';

interface AppNavbarProps {
  items?: readonly MenuItem[];
  /** Called after a link is followed, so the mobile drawer can close. */
  onNavigate?: () => void;
}

export function AppNavbar({ items = defaultMenu, onNavigate }: AppNavbarProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <Stack component="nav" gap={4} aria-label={t('nav.label')}>
      {items.map((item) => {
        const active = isMenuItemActive(item, pathname);
        return (
          <NavLink
            key={item.key}
            component={Link}
            to={item.path}
            label={t(item.labelKey)}
            leftSection={<item.icon size={20} />}
            active={active}
            aria-current={active ? 'page' : undefined}
            variant="light"
            fw={500}
            style={{ borderRadius: 'var(--mantine-radius-md)' }}
            onClick={onNavigate}
            data-testid={`nav-${item.key}`}
          />
        );
      })}
    </Stack>
  );
}
