import { defaultMenu, type MenuItem, type MenuItemKey, type RoleChecks } from '@pathology/contract';
import type { ParseKeys } from 'i18next';
import type { ComponentType } from 'react';
import {
  IconFileExport,
  IconFileImport,
  IconFileText,
  IconFolders,
  IconSpeakerphone,
  IconUpload,
  IconUsers,
  IconUsersGroup,
} from '@tabler/icons-react';

export type { MenuItem };

interface MenuPresentation {
  labelKey: ParseKeys;
  icon: ComponentType<{ size?: number | string }>;
}

/** How each menu entry of part 1 §2 looks; which entries appear comes from the server or the role checks. */
export const MENU_PRESENTATION: Record<MenuItemKey, MenuPresentation> = {
  organizations: { labelKey: 'nav.organizations', icon: IconUsersGroup },
  cases: { labelKey: 'nav.cases', icon: IconFolders },
  bulkUpload: { labelKey: 'nav.bulkUpload', icon: IconUpload },
  users: { labelKey: 'nav.users', icon: IconUsers },
  contracts: { labelKey: 'nav.contracts', icon: IconFileText },
  importCsv: { labelKey: 'nav.importCsv', icon: IconFileImport },
  exportCsv: { labelKey: 'nav.exportCsv', icon: IconFileExport },
  noticePosts: { labelKey: 'nav.noticePosts', icon: IconSpeakerphone },
};

/** What everyone sees, whatever their roles: the menu while roles are unknown or could not be loaded. */
export const BASE_MENU: readonly MenuItem[] = defaultMenu({
  isMember: false,
  isAdministrator: false,
  isProprietor: false,
  isProviderEmployee: false,
  isSuperUser: false,
  canSeeOriginalUsedFileSize: false,
  canSeeMemberList: false,
  canCreateOrganization: false,
  canCreateContract: false,
});

/**
 * The menu to show (spec part 1 §2): the server's own list replaces the default one when it supplies one; otherwise
 * the default menu is built from the role checks; without either, the entries everyone sees.
 */
export function resolveMenu(
  serverMenu: readonly MenuItem[] | null | undefined,
  checks: RoleChecks | undefined,
): readonly MenuItem[] {
  if (serverMenu) return serverMenu;
  return checks ? defaultMenu(checks) : BASE_MENU;
}

/** A menu entry stays highlighted on its sub-pages (/cases/123 keeps "Cases" active). */
export function isMenuItemActive(item: Pick<MenuItem, 'path'>, pathname: string): boolean {
  return pathname === item.path || pathname.startsWith(`${item.path}/`);
}

/**
 * The entry to highlight: the longest matching path, so /notices/posts/1 lights "Notice Post" and not a shorter
 * entry that happens to be its prefix.
 */
export function activeMenuKey(items: readonly MenuItem[], pathname: string): MenuItemKey | undefined {
  return items.filter((item) => isMenuItemActive(item, pathname)).sort((a, b) => b.path.length - a.path.length)[0]?.key;
}
