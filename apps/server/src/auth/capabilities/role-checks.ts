import { roleAtLeast, type GroupRole, type RoleChecks } from '@pathology/contract';
import type { CallerAccess } from './access-facts.ts';
import { canCreateContract } from './contract-capabilities.ts';

/**
 * Caller-wide role checks (spec part 3 §6): member → see original used file size, administrator →
 * see member list, proprietor → create organization, provider employee → create contract. A role
 * counts if the caller holds it in any group; contract proprietors act as proprietor of their
 * contracts' groups and super users hold every role.
 */
export function computeRoleChecks(
  caller: Pick<CallerAccess, 'isSuperUser' | 'isProviderEmployee' | 'memberships' | 'proprietorContractIds'>,
): RoleChecks {
  const ownsContract = caller.proprietorContractIds.length > 0;
  const holds = (required: GroupRole) =>
    caller.isSuperUser || ownsContract || caller.memberships.some((m) => roleAtLeast(m.role, required));
  const isMember = holds('member');
  const isAdministrator = holds('administrator');
  return {
    isMember,
    isAdministrator,
    isProprietor: holds('proprietor'),
    isProviderEmployee: caller.isProviderEmployee,
    isSuperUser: caller.isSuperUser,
    canSeeOriginalUsedFileSize: isMember,
    canSeeMemberList: isAdministrator,
    // A new group must go into a contract the caller owns; a group proprietor without one has nowhere to put it.
    canCreateOrganization: caller.isSuperUser || ownsContract,
    canCreateContract: canCreateContract(caller),
  };
}
