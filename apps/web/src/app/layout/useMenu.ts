import type { MenuItem } from '@pathology/contract';
import { useEffect } from 'react';
import { useAccountMenu, useAccountRoles } from '../../features/account/account.queries.ts';
import { resolveMenu } from './menu.ts';

/** The signed-in user's menu: the server's list (GET accounts/me/menu) or the default one from GET accounts/roles. */
export function useMenu(): { items: readonly MenuItem[]; isPending: boolean } {
  const menu = useAccountMenu();
  const roles = useAccountRoles();
  const serverMenu = menu.data?.data;

  // Spec part 1 §8: a failure to fetch the menu is only logged; the default menu takes over.
  useEffect(() => {
    if (menu.error) console.error('Unable to load the menu', menu.error);
  }, [menu.error]);
  useEffect(() => {
    if (roles.error) console.error('Unable to load the roles', roles.error);
  }, [roles.error]);

  const isPending = menu.isPending || (!serverMenu && roles.isPending);
  return { items: resolveMenu(serverMenu, roles.data?.checks), isPending };
}
