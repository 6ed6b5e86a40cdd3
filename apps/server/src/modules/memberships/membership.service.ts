import type { GroupRole, Membership, MembershipList, MembershipListQuery, PartnerList } from '@pathology/contract';
import type { Caller } from '../../auth/caller.ts';
import type { CapabilitiesService } from '../../auth/capabilities/index.ts';
import { HttpError } from '../../http/http-error.ts';
import type { MembershipRepository } from './membership.repository.ts';
import { requireRoleWithinOwn } from './role-ceiling.ts';

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
    return memberOf(organizationId, email);
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
      requireRoleWithinOwn(access.role, member.roles[0]!);
      if (changes.role != null) requireRoleWithinOwn(access.role, changes.role);
      await memberships.update(organizationId, member.accountId, changes);
      return get(caller, organizationId, email);
    },

    async remove(caller: Caller, organizationId: string, email: string, purge: boolean) {
      const access = await capabilities.requireOrganizationCapability(caller, organizationId, 'canRemoveMember');
      const member = await memberOf(organizationId, email);
      requireRoleWithinOwn(access.role, member.roles[0]!);
      return memberships.remove(organizationId, member.accountId, email.toLowerCase(), purge);
    },

    async partners(caller: Caller, organizationId: string, page: number, limit: number): Promise<PartnerList> {
      await capabilities.requireOrganizationCapability(caller, organizationId, 'canSeePartnerList');
      return memberships.partners(organizationId, page, limit);
    },
  };
}

export type MembershipService = ReturnType<typeof createMembershipService>;
