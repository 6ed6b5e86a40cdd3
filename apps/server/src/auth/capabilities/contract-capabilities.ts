import type { ContractCapabilities } from '@pathology/contract';
import type { CallerAccess } from './access-facts.ts';

export type ContractCapability = keyof ContractCapabilities;

/**
 * Capabilities that do not depend on a particular contract (creating one): the provider's employees and super
 * users, and proprietors of a contract, who may open further ones (a hospital group adding a site).
 */
export function canCreateContract(
  caller: Pick<CallerAccess, 'isSuperUser' | 'isProviderEmployee' | 'proprietorContractIds'>,
): boolean {
  return caller.isSuperUser || caller.isProviderEmployee || caller.proprietorContractIds.length > 0;
}

/**
 * The caller's capabilities on a contract (matrix in effective-role.ts), or null when they may not
 * see it, so that it looks absent (404).
 */
export function computeContractAccess(caller: CallerAccess, contractId: string): ContractCapabilities | null {
  const proprietor = caller.isSuperUser || caller.proprietorContractIds.includes(contractId);
  const memberOfAGroup = caller.memberships.some((m) => m.contractId === contractId);
  if (!proprietor && !memberOfAGroup) return null;
  return {
    canCreate: canCreateContract(caller),
    canDelete: caller.isSuperUser,
    canEdit: proprietor,
    canInviteUser: proprietor,
    canRemoveMember: proprietor,
    canSee: true,
    canSeeOtherUsedFileSize: proprietor,
  };
}
