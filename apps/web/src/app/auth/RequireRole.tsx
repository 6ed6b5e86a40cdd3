import type { RoleChecks } from '@pathology/contract';
import { Center, Loader } from '@mantine/core';
import type { ReactNode } from 'react';
import { NotFoundPage } from '../../components/NotFoundPage.tsx';
import { useAccountRoles } from '../../features/account/account.queries.ts';

type RoleCheck = { [K in keyof RoleChecks]: RoleChecks[K] extends boolean ? K : never }[keyof RoleChecks];

/**
 * Guards a screen by a role check of GET accounts/roles (e.g. /users → isAdministrator). A user without the role
 * sees the not-found page, as for any address they may not know about. The server enforces the same rule.
 */
export function RequireRole({ check, children }: { check: RoleCheck; children: ReactNode }) {
  const roles = useAccountRoles();
  if (roles.isPending) {
    return (
      <Center mih="40vh">
        <Loader type="dots" />
      </Center>
    );
  }
  return roles.data?.checks[check] ? children : <NotFoundPage />;
}
