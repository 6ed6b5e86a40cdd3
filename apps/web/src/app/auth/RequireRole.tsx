import type { RoleChecks } from '@pathology/contract';
import { Center, Loader } from '@mantine/core';
import type { ReactNode } from 'react';
import { NotFoundPage } from '../../components/NotFoundPage.tsx';
import { useAccountRoles } from '../../features/account/account.queries.ts';

type RoleCheck = { [K in keyof RoleChecks]: RoleChecks[K] extends boolean ? K : never }[keyof RoleChecks];

/**
 * Guards a screen by a role check of GET accounts/roles (e.g. /users → isAdministrator), or any of several. A user without the role
 * sees the not-found page, as for any address they may not know about. The server enforces the same rule.
 */
export function RequireRole({ check, children }: { check: RoleCheck | readonly RoleCheck[]; children: ReactNode }) {
  const roles = useAccountRoles();
  if (roles.isPending) {
    return (
      <Center mih="40vh">
        <Loader type="dots" />
      </Center>
    );
  }
  const checks = typeof check === 'string' ? [check] : check;
  return checks.some((one) => roles.data?.checks[one]) ? children : <NotFoundPage />;
}
