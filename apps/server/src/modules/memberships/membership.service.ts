import type { GroupRole, Membership, MembershipList, MembershipListQuery, PartnerList } from '@pathology/contract';
import type { Caller } from '../../auth/caller.ts';
import { ORGANIZATION_ROLES, type CapabilitiesService, type OrganizationRole } from '../../auth/capabilities/index.ts';
import { HttpError } from '../../http/http-error.ts';
import type { MembershipRepository } from './membership.repository.ts';

export const MEMBERSHIP_MESSAGES = {
  roleAboveOwn: 'You may not give or change a role above your own in this group',
} as const;

function requireWithinOwnRole(callerRole: OrganizationRole, role: GroupRole): void {
  if (ORGANIZATION_ROLES.indexOf(callerRole) < ORGANIZATION_ROLES.indexOf(role)) {
    throw HttpError.forbidden(MEMBERSHIP_MESSAGES.roleAboveOwn);
  }
}

/** The Users screen: a group's members, their roles, removal; administrators only (part 3 §2, §6). */
export function createMembershipService(deps: {
  memberships: MembershipRepository;
  capabilities: CapabilitiesService;
}) {
  const { memberships, capabilities } = deps;

  async function memberOf(organizationId: string, email: string) {
    const member = await memberships.findByEmail(organizationId, email);
    if (member == null) throw HttpError.notFound();
    return member;
  }

  async function get(caller: Caller, organizationId: string, email: string): Promise<Membership> {
    await capabilities.requireOrganizationCapability(caller, organizationId, 'canSeeMemberList');
    await memberOf(organizationId, email);
    const { data } = await memberships.list(organizationId, {
      page: 1,
      limit: 100,
      field: 'email',
      direction: 'asc',
      manageType: 'all',
      filterField: 'email',
      filterValue: email.toLowerCase(),
    });
    const found = data.find((row) => row.email === email.toLowerCase());
    if (found == null) throw HttpError.notFound();
    return found;
  }

  return {
    async list(caller: Caller, organizationId: string, query: MembershipListQuery): Promise<MembershipList> {
      await capabilities.requireOrganizationCapability(caller, organizationId, 'canSeeMemberList');
      return memberships.list(organizationId, query);
    },

    get,

    /** A new role (never above the caller's own, nor for someone above the caller) or team. */
    async update(
      caller: Caller,
      organizationId: string,
      email: string,
      changes: { role?: GroupRole; team?: string | null },
    ): Promise<Membership> {
      const access = await capabilities.requireOrganizationCapability(caller, organizationId, 'canRemoveMember');
      const member = await memberOf(organizationId, email);
      requireWithinOwnRole(access.role, member.role);
      if (changes.role != null) requireWithinOwnRole(access.role, changes.role);
      await memberships.update(organizationId, member.accountId, changes);
      return get(caller, organizationId, email);
    },

    async remove(caller: Caller, organizationId: string, email: string, purge: boolean) {
      const access = await capabilities.requireOrganizationCapability(caller, organizationId, 'canRemoveMember');
      const member = await memberOf(organizationId, email);
      requireWithinOwnRole(access.role, member.role);
      return memberships.remove(organizationId, member.accountId, email.toLowerCase(), purge);
    },

    async partners(caller: Caller, organizationId: string, page: number, limit: number): Promise<PartnerList> {
      await capabilities.requireOrganizationCapability(caller, organizationId, 'canSeePartnerList');
      return memberships.partners(organizationId, page, limit);
    },
  };
}

export type MembershipService = ReturnType<typeof createMembershipService>;
