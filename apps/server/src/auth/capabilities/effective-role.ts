/*
 * The access matrix. The spec names the roles and the capabilities but leaves the matrix open
 * (part 3 §6 "exact role matrices and grant role values: not shown"); this is the one we chose.
 *
 * Effective role on a case = the HIGHEST role any of these sources gives; no source → the case is
 * invisible and its routes answer 404.
 *
 * | source                                                 | case role                                   |
 * |--------------------------------------------------------|---------------------------------------------|
 * | super user                                             | super_user                                  |
 * | membership in the owner group                          | the membership role                         |
 * | proprietor of the owner group's contract               | proprietor                                  |
 * | grant on the case or its owner group, to the account   | grantedRole                                 |
 * | same grant, to a group the caller belongs to           | lower of grantedRole and the caller's role there |
 * | member of a partner group of the owner group           | lower of partner and the caller's role there |
 * | member of the slide-provider group (intendedOwner…)    | provider                                    |
 *
 * Grants to a group and partner access are capped by the caller's own role in that group, so a
 * read-only member never gains more through their group than their group gives them at home.
 * Ranks, lowest first: provider < read_only < partner < member < administrator < proprietor < super_user.
 *
 * | case capability                                        | provider, read_only | partner | member | administrator, proprietor | super |
 * |--------------------------------------------------------|---------------------|---------|--------|---------------------------|-------|
 * | view, view prediction, view labelled, private star     | ✓                   | ✓       | ✓      | ✓                         | ✓     |
 * | deniedScreenshot                                       | true                | false   | false  | false                     | false |
 * | comment                                                |                     | ✓       | ✓      | ✓                         | ✓     |
 * | edit, upload/download image, public labels, image note |                     |         | ✓      | ✓                         | ✓     |
 * | request/recover prediction (owner predictionEnabled)   |                     |         | ✓      | ✓                         | ✓     |
 * | download drawings (owner downloadDrawingsEnabled)      |                     |         | ✓      | ✓                         | ✓     |
 * | create drawing (unless owner drawingCreationDenied)    |                     |         | ✓      | ✓                         | ✓     |
 * | delete, share (grants), transfer                       |                     |         |        | ✓                         | ✓     |
 *
 * The owner group's flags bind super users too: they say what the group has switched on, not who
 * may do it (a super user can switch them on).
 *
 * Organization: membership role; contract proprietors act as proprietor; super users as super.
 * Partner-group members and grantees on the group see it (role `viewer`) without any right in it:
 * grants open cases, not the group's administration.
 * create case / create comment: member+ · invite, member list, partner list, remove member,
 * transfer cases, edit: administrator+ · create organization, delete: proprietor of the group's
 * contract · super users: all.
 *
 * Contract: create: provider employee · delete: super user only · edit, invite, remove member, see
 * other used file size: its proprietors · see: its proprietors and members of any of its groups ·
 * super users: all. Invisible (404) when the caller may not see it.
 */
import { GROUP_ROLES, type GroupRole } from '@pathology/contract';
import type { CallerAccess, CaseFacts, GrantFact } from './access-facts.ts';

export const CASE_ROLES = [
  'provider',
  'read_only',
  'partner',
  'member',
  'administrator',
  'proprietor',
  'super_user',
] as const;
export type CaseRole = (typeof CASE_ROLES)[number];

export const ORGANIZATION_ROLES = ['viewer', ...GROUP_ROLES, 'super_user'] as const;
export type OrganizationRole = (typeof ORGANIZATION_ROLES)[number];

export function caseRoleAtLeast(role: CaseRole, required: CaseRole): boolean {
  return CASE_ROLES.indexOf(role) >= CASE_ROLES.indexOf(required);
}

export function organizationRoleAtLeast(role: OrganizationRole, required: OrganizationRole): boolean {
  return ORGANIZATION_ROLES.indexOf(role) >= ORGANIZATION_ROLES.indexOf(required);
}

function lowerCaseRole(a: CaseRole, b: CaseRole): CaseRole {
  return caseRoleAtLeast(a, b) ? b : a;
}

function highestCaseRole(roles: readonly (CaseRole | null)[]): CaseRole | null {
  let best: CaseRole | null = null;
  for (const role of roles) {
    if (role != null && (best == null || caseRoleAtLeast(role, best))) best = role;
  }
  return best;
}

export function membershipRole(caller: CallerAccess, organizationId: string): GroupRole | null {
  return caller.memberships.find((m) => m.organizationId === organizationId)?.role ?? null;
}

/** The role a grant gives this caller, or null when the grant is for someone else. */
function grantRoleForCaller(caller: CallerAccess, grant: GrantFact): CaseRole | null {
  switch (grant.granteeType) {
    case 'account':
      return grant.granteeId === caller.accountId ? grant.grantedRole : null;
    case 'organization': {
      const home = membershipRole(caller, grant.granteeId);
      return home == null ? null : lowerCaseRole(grant.grantedRole, home);
    }
  }
}

function grantsOn(caller: CallerAccess, target: { caseId?: string; organizationId: string }): CaseRole | null {
  return highestCaseRole(
    caller.grants
      .filter((g) =>
        g.resourceType === 'case'
          ? target.caseId != null && g.caseId === target.caseId
          : g.organizationId === target.organizationId,
      )
      .map((g) => grantRoleForCaller(caller, g)),
  );
}

function partnerRole(caller: CallerAccess, organizationId: string): CaseRole | null {
  return highestCaseRole(
    caller.partnerships
      .filter((p) => p.organizationId === organizationId)
      .map((p) => {
        const home = membershipRole(caller, p.partnerOrganizationId);
        return home == null ? null : lowerCaseRole('partner', home);
      }),
  );
}

/** The caller's role on a case per the table above; null means the case is invisible to them. */
export function effectiveCaseRole(caller: CallerAccess, kase: CaseFacts): CaseRole | null {
  if (caller.isSuperUser) return 'super_user';
  const owner = kase.ownerOrganization;
  const provider = kase.intendedOwnerOrganizationId;
  return highestCaseRole([
    membershipRole(caller, owner.id),
    caller.proprietorContractIds.includes(owner.contractId) ? 'proprietor' : null,
    grantsOn(caller, { caseId: kase.id, organizationId: owner.id }),
    partnerRole(caller, owner.id),
    provider != null && membershipRole(caller, provider) != null ? 'provider' : null,
  ]);
}

/** The caller's role in a group; null means the group is invisible to them. */
export function effectiveOrganizationRole(
  caller: CallerAccess,
  organization: { id: string; contractId: string },
): OrganizationRole | null {
  if (caller.isSuperUser) return 'super_user';
  if (caller.proprietorContractIds.includes(organization.contractId)) return 'proprietor';
  const role = membershipRole(caller, organization.id);
  if (role != null) return role;
  const seesThroughGrantOrPartner =
    grantsOn(caller, { organizationId: organization.id }) != null || partnerRole(caller, organization.id) != null;
  return seesThroughGrantOrPartner ? 'viewer' : null;
}
