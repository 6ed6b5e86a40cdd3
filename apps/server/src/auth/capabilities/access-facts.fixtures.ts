// Test-only builders of access facts, shared by the unit tests of this folder.
import type { GroupRole } from '@pathology/contract';
import type { CallerAccess, CaseFacts, GrantFact, OrganizationFacts } from './access-facts.ts';

export const ME = 'account-me';
export const CONTRACT = 'contract-1';
export const OTHER_CONTRACT = 'contract-2';
/** The group owning the case under test. */
export const OWNER = 'org-owner';
/** The slide-provider group of the case (intendedOwnerOrganizationId). */
export const SLIDES = 'org-slides';
/** A partner group of OWNER. */
export const PARTNER = 'org-partner';
export const OTHER = 'org-other';
export const CASE = 'case-1';

const CONTRACT_OF: Record<string, string> = { [OWNER]: CONTRACT, [SLIDES]: OTHER_CONTRACT, [PARTNER]: OTHER_CONTRACT };

export function organization(overrides: Partial<OrganizationFacts> = {}): OrganizationFacts {
  return {
    id: OWNER,
    contractId: CONTRACT,
    predictionEnabled: true,
    downloadDrawingsEnabled: true,
    drawingCreationDenied: false,
    ...overrides,
  };
}

export function caseFacts(owner: Partial<OrganizationFacts> = {}): CaseFacts {
  return { id: CASE, ownerOrganization: organization(owner), intendedOwnerOrganizationId: SLIDES };
}

export function caller(overrides: Partial<CallerAccess> = {}): CallerAccess {
  return {
    accountId: ME,
    isSuperUser: false,
    isProviderEmployee: false,
    memberships: [],
    proprietorContractIds: [],
    // The repository only reports partner relations of groups the caller belongs to; so do we.
    partnerships: (overrides.memberships ?? []).some((m) => m.organizationId === PARTNER)
      ? [{ organizationId: OWNER, partnerOrganizationId: PARTNER }]
      : [],
    grants: [],
    ...overrides,
  };
}

export function member(organizationId: string, role: GroupRole) {
  return { organizationId, role, contractId: CONTRACT_OF[organizationId] ?? OTHER_CONTRACT };
}

export function grant(
  on: { caseId: string } | { organizationId: string },
  grantedRole: GroupRole,
  grantee: { account: string } | { organization: string },
): GrantFact {
  return {
    resourceType: 'caseId' in on ? 'case' : 'organization',
    caseId: 'caseId' in on ? on.caseId : null,
    organizationId: 'organizationId' in on ? on.organizationId : null,
    grantedRole,
    granteeType: 'account' in grantee ? 'account' : 'organization',
    granteeId: 'account' in grantee ? grantee.account : grantee.organization,
  };
}
