import type { GrantResource, GranteeType, GroupRole } from '@pathology/contract';

/** One group the caller belongs to. */
export interface MembershipFact {
  organizationId: string;
  /** The group's contract: contract screens are visible to members of any of its groups. */
  contractId: string;
  role: GroupRole;
}

/** The caller belongs to `partnerOrganizationId`, a partner group of `organizationId`. */
export interface PartnershipFact {
  organizationId: string;
  partnerOrganizationId: string;
}

/** A grant row; the pure rules decide whether it concerns the caller and the object at hand. */
export interface GrantFact {
  resourceType: GrantResource;
  caseId: string | null;
  organizationId: string | null;
  grantedRole: GroupRole;
  granteeType: GranteeType;
  granteeId: string;
}

/**
 * Everything about the caller that access depends on, loaded once per check. `grants` need only
 * hold the grants on the object being checked (and may hold more: the rules filter them again).
 */
export interface CallerAccess {
  accountId: string;
  isSuperUser: boolean;
  /** Member of a group flagged isProvider (the provider's own group). */
  isProviderEmployee: boolean;
  memberships: readonly MembershipFact[];
  /** Contracts the caller owns (contract_proprietors). */
  proprietorContractIds: readonly string[];
  partnerships: readonly PartnershipFact[];
  grants: readonly GrantFact[];
}

/** The fields of a group that capabilities depend on. */
export interface OrganizationFacts {
  id: string;
  contractId: string;
  predictionEnabled: boolean;
  downloadDrawingsEnabled: boolean;
  drawingCreationDenied: boolean;
}

export interface CaseFacts {
  id: string;
  ownerOrganization: OrganizationFacts;
  /** The slide provider group, whose members may look at the case. */
  intendedOwnerOrganizationId: string | null;
}
