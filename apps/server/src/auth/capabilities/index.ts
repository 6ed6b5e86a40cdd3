// The capabilities module: routes and services import from here, never from the files behind it.
export type * from './access-facts.ts';
export { acceptedMembership } from './accepted-membership.ts';
export { createAccessRepository, visibleCasesCondition, type AccessRepository } from './access.repository.ts';
export {
  createCapabilitiesService,
  type CapabilitiesService,
  type VisibleCase,
  type VisibleOrganization,
} from './capabilities.service.ts';
export {
  canDeleteComment,
  canUpdateComment,
  caseCapabilitiesForRole,
  computeCaseAccess,
  type CaseAccess,
  type CaseCapability,
} from './case-capabilities.ts';
export { canCreateContract, computeContractAccess, type ContractCapability } from './contract-capabilities.ts';
export {
  CASE_ROLES,
  ORGANIZATION_ROLES,
  organizationRoleAtLeast,
  type CaseRole,
  type OrganizationRole,
} from './effective-role.ts';
export {
  computeOrganizationAccess,
  organizationCapabilitiesForRole,
  type OrganizationAccess,
  type OrganizationCapability,
} from './organization-capabilities.ts';
export { computeRoleChecks } from './role-checks.ts';
