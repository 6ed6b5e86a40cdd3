import type { ParseKeys } from 'i18next';
import type { ComponentType } from 'react';
import { IconFolders, IconUsersGroup } from '../../components/icons.tsx';

export interface MenuItem {
  /** Stable id, also the test id suffix (`nav-<key>`). */
  key: string;
  path: string;
  labelKey: ParseKeys;
  icon: ComponentType<{ size?: number | string }>;
}

/**
 * The menu everyone sees. Role-gated entries (Upload Files, Users, Contracts, CSV, Notice Post) and the server-supplied
 * menu (spec part 1 §2) will filter or replace this list once the signed-in user is known.
 */
export const defaultMenu: readonly MenuItem[] = [
  { key: 'organizations', path: '/organizations', labelKey: 'nav.organizations', icon: IconUsersGroup },
  { key: 'cases', path: '/cases', labelKey: 'nav.cases', icon: IconFolders },
];

/** A menu entry stays highlighted on its sub-pages (/cases/123 keeps "Cases" active). */
export function isMenuItemActive(item: Pick<MenuItem, 'path'>, pathname: string): boolean {
  return pathname === item.path || pathname.startsWith(`${item.path}/`);
}
