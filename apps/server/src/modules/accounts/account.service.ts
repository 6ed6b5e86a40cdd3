import { defaultMenu, type Account, type AccountMenu, type AccountRoles } from '@pathology/contract';
import type { Caller } from '../../auth/caller.ts';
import type { CapabilitiesService } from '../../auth/capabilities/index.ts';
import { HttpError } from '../../http/http-error.ts';
import type { AccountRepository } from './account.repository.ts';

interface Deps {
  accounts: Pick<AccountRepository, 'findById' | 'findMemberships'>;
  capabilities: Pick<CapabilitiesService, 'getRoleChecks'>;
}

export function createAccountService({ accounts, capabilities }: Deps) {
  return {
    async me(caller: Caller): Promise<Account> {
      const account = await accounts.findById(caller.accountId);
      if (account == null) throw HttpError.notFound();
      return { ...account, isSuperUser: caller.isSuperUser, createdAt: account.createdAt.toISOString() };
    },

    async roles(caller: Caller): Promise<AccountRoles> {
      const [checks, memberships] = await Promise.all([
        capabilities.getRoleChecks(caller),
        accounts.findMemberships(caller.accountId),
      ]);
      return { checks, memberships };
    },

    /** The server supplies the menu (part 1 §2) so that what a role sees is decided in one place. */
    async menu(caller: Caller): Promise<AccountMenu> {
      return { data: defaultMenu(await capabilities.getRoleChecks(caller)) };
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
