import type { OrganizationCapabilities } from '@pathology/contract';
import type { CallerAccess } from './access-facts.ts';
import { effectiveOrganizationRole, organizationRoleAtLeast, type OrganizationRole } from './effective-role.ts';

export interface OrganizationAccess {
  role: OrganizationRole;
  capabilities: OrganizationCapabilities;
}

export type OrganizationCapability = keyof OrganizationCapabilities;

/** The capabilities of a role in a group (matrix in effective-role.ts). */
export function organizationCapabilitiesForRole(
  role: OrganizationRole,
  ownsContract: boolean,
): OrganizationCapabilities {
  const member = organizationRoleAtLeast(role, 'member');
  const administrator = organizationRoleAtLeast(role, 'administrator');
  // A group lives inside a contract, so creating or deleting one is the contract owner's decision.
  const contractOwner = ownsContract || role === 'super_user';
  return {
    canCreateCase: member,
    canCreateComment: member,
    canInviteUser: administrator,
    canSeeMemberList: administrator,
    canSeePartnerList: administrator,
    canRemoveMember: administrator,
    canCreateOrganization: contractOwner,
    canTransferCases: administrator,
    canEdit: administrator,
    canDelete: contractOwner,
  };
}

/** The caller's role and capabilities in a group, or null when the group must look absent (404). */
export function computeOrganizationAccess(
  caller: CallerAccess,
  organization: { id: string; contractId: string },
): OrganizationAccess | null {
  const role = effectiveOrganizationRole(caller, organization);
  if (role == null) return null;
  const ownsContract = caller.proprietorContractIds.includes(organization.contractId);
  return { role, capabilities: organizationCapabilitiesForRole(role, ownsContract) };
}
