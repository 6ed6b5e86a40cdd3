import { Badge, Divider, NavLink, Skeleton, Stack } from '@mantine/core';
import type { MenuItem } from '@pathology/contract';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useCsvRowCount } from '../../features/csv-import/csv-rows.store.ts';
import { OrganizationPicker } from '../../features/organizations/OrganizationPicker.tsx';
import { useUploadQueueCount } from '../../features/uploads/upload-queue.store.ts';
import { MENU_PRESENTATION, activeMenuKey } from './menu.ts';
import { useMenu } from './useMenu.ts';

interface AppNavbarProps {
  /** Called after a link is followed, so the mobile drawer can close. */
  onNavigate?: () => void;
}

function useBadgeCount(badge: MenuItem['badge']): number {
  const uploads = useUploadQueueCount();
  const rows = useCsvRowCount();
  if (badge === 'uploadQueue') return uploads;
  if (badge === 'csvRows') return rows;
  return 0;
}

function MenuLink({ item, active, onNavigate }: { item: MenuItem; active: boolean; onNavigate?: () => void }) {
  const { t } = useTranslation();
  const count = useBadgeCount(item.badge);
  const { labelKey, icon: Icon } = MENU_PRESENTATION[item.key];
  return (
    <NavLink
      component={Link}
      to={item.path}
      label={t(labelKey)}
      leftSection={<Icon size={20} />}
      rightSection={
        count > 0 ? (
          <Badge size="sm" variant={active ? 'filled' : 'light'} miw={22} data-testid={`nav-badge-${item.key}`}>
            {count}
          </Badge>
        ) : undefined
      }
      active={active}
      aria-current={active ? 'page' : undefined}
      variant="light"
      fw={500}
      style={{ borderRadius: 'var(--mantine-radius-md)' }}
      onClick={onNavigate}
      data-testid={`nav-${item.key}`}
    />
  );
}

export function AppNavbar({ onNavigate }: AppNavbarProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { items, isPending } = useMenu();
  const activeKey = activeMenuKey(items, pathname);
  return (
    <Stack gap="md">
      <OrganizationPicker />
      <Divider />
      <Stack component="nav" gap={4} aria-label={t('nav.label')} aria-busy={isPending} data-testid="main-menu">
        {isPending
          ? [0, 1, 2].map((index) => <Skeleton key={index} height={38} radius="md" />)
          : items.map((item) => (
              <MenuLink key={item.key} item={item} active={item.key === activeKey} onNavigate={onNavigate} />
            ))}
      </Stack>
    </Stack>
  );
}
