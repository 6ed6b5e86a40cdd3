import {
  defaultMenu,
  type Account,
  type AccountMenu,
  type AccountRoles,
  type UpdateAccountAttributesRequest,
  type UpdateAccountRequestSchema,
} from '@pathology/contract';
import type { z } from 'zod';
import type { Caller } from '../../auth/caller.ts';
import type { CapabilitiesService } from '../../auth/capabilities/index.ts';
import { HttpError } from '../../http/http-error.ts';
import type { AccountRepository } from './account.repository.ts';

interface Deps {
  accounts: Pick<AccountRepository, 'findById' | 'findMemberships' | 'update'>;
  capabilities: Pick<CapabilitiesService, 'getRoleChecks' | 'requireRoleCheck'>;
}

type Names = z.output<typeof UpdateAccountRequestSchema>;

export function createAccountService({ accounts, capabilities }: Deps) {
  async function me(caller: Caller): Promise<Account> {
    const account = await accounts.findById(caller.accountId);
    if (account == null) throw HttpError.notFound();
    return { ...account, isSuperUser: caller.isSuperUser, createdAt: account.createdAt.toISOString() };
  }

  return {
    me,

    /** POST accounts/me/update: the caller's own names. */
    async updateMe(caller: Caller, names: Names): Promise<Account> {
      await accounts.update(caller.accountId, names);
      return me(caller);
    },

    /** POST accounts/update: a super user corrects someone's names (a typo in an invitation). */
    async updateAccount(caller: Caller, accountId: string, names: Names): Promise<void> {
      await capabilities.requireRoleCheck(caller, 'isSuperUser');
      if (!(await accounts.update(accountId, names))) throw HttpError.notFound();
    },

    async updateAttributes(caller: Caller, attributes: UpdateAccountAttributesRequest): Promise<Account> {
      await accounts.update(caller.accountId, attributes);
      return me(caller);
    },

    async setAvatar(caller: Caller, avatarUrl: string | null): Promise<Account> {
      await accounts.update(caller.accountId, { avatarUrl });
      return me(caller);
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
