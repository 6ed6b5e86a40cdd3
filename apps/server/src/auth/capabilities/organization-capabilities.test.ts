import { OrganizationCapabilitiesSchema, type OrganizationCapabilities } from '@pathology/contract';
import { describe, expect, it } from 'vitest';
import type { CallerAccess } from './access-facts.ts';
import {
  CASE,
  CONTRACT,
  ME,
  OTHER,
  OTHER_CONTRACT,
  OWNER,
  PARTNER,
  SLIDES,
  caller,
  grant,
  member,
  organization,
} from './access-facts.fixtures.ts';
import { ORGANIZATION_ROLES, type OrganizationRole } from './effective-role.ts';
import { computeOrganizationAccess, organizationCapabilitiesForRole } from './organization-capabilities.ts';

const CAPABILITIES = OrganizationCapabilitiesSchema.keyof().options;

// One column per role in ORGANIZATION_ROLES order, for a caller who does not own the group's contract.
// prettier-ignore
const MATRIX: Record<keyof OrganizationCapabilities, readonly [0 | 1, 0 | 1, 0 | 1, 0 | 1, 0 | 1, 0 | 1]> = {
  //                      viewer read_only member administrator proprietor super_user
  canCreateCase:         [0,     0,        1,     1,            1,         1],
  canCreateComment:      [0,     0,        1,     1,            1,         1],
  canInviteUser:         [0,     0,        0,     1,            1,         1],
  canSeeMemberList:      [0,     0,        0,     1,            1,         1],
  canSeePartnerList:     [0,     0,        0,     1,            1,         1],
  canRemoveMember:       [0,     0,        0,     1,            1,         1],
  canTransferCases:      [0,     0,        0,     1,            1,         1],
  canEdit:               [0,     0,        0,     1,            1,         1],
  canCreateOrganization: [0,     0,        0,     0,            0,         1],
  canDelete:             [0,     0,        0,     0,            0,         1],
};
const CONTRACT_OWNER_ONLY = ['canCreateOrganization', 'canDelete'];

const expected = (role: OrganizationRole, capability: keyof OrganizationCapabilities): boolean =>
  MATRIX[capability][ORGANIZATION_ROLES.indexOf(role)] === 1;

describe('organization capabilities per role', () => {
  it('the matrix covers every capability of the contract', () => {
    expect(Object.keys(MATRIX).sort()).toEqual([...CAPABILITIES].sort());
  });

  describe.each(ORGANIZATION_ROLES)('%s', (role) => {
    it.each(CAPABILITIES)('%s', (capability) => {
      expect(organizationCapabilitiesForRole(role, false)[capability]).toBe(expected(role, capability));
    });

    it("owning the group's contract adds create organization and delete, nothing else", () => {
      const owned = organizationCapabilitiesForRole(role, true);
      for (const capability of CAPABILITIES) {
        expect(owned[capability], capability).toBe(
          CONTRACT_OWNER_ONLY.includes(capability) ? true : expected(role, capability),
        );
      }
    });
  });
});

describe('effective role in a group', () => {
  const SCENARIOS: { name: string; caller: CallerAccess; role: OrganizationRole | null }[] = [
    { name: 'nobody', caller: caller(), role: null },
    { name: 'member of another group', caller: caller({ memberships: [member(OTHER, 'proprietor')] }), role: null },
    { name: 'read_only member', caller: caller({ memberships: [member(OWNER, 'read_only')] }), role: 'read_only' },
    { name: 'member', caller: caller({ memberships: [member(OWNER, 'member')] }), role: 'member' },
    {
      name: 'administrator',
      caller: caller({ memberships: [member(OWNER, 'administrator')] }),
      role: 'administrator',
    },
    { name: 'proprietor', caller: caller({ memberships: [member(OWNER, 'proprietor')] }), role: 'proprietor' },
    { name: 'contract proprietor', caller: caller({ proprietorContractIds: [CONTRACT] }), role: 'proprietor' },
    {
      name: 'read_only member who owns the contract',
      caller: caller({ memberships: [member(OWNER, 'read_only')], proprietorContractIds: [CONTRACT] }),
      role: 'proprietor',
    },
    { name: 'proprietor of another contract', caller: caller({ proprietorContractIds: [OTHER_CONTRACT] }), role: null },
    { name: 'super user', caller: caller({ isSuperUser: true }), role: 'super_user' },
    { name: 'partner-group member', caller: caller({ memberships: [member(PARTNER, 'member')] }), role: 'viewer' },
    {
      name: 'organization grant to the account',
      caller: caller({ grants: [grant({ organizationId: OWNER }, 'administrator', { account: ME })] }),
      role: 'viewer',
    },
    {
      name: "organization grant to the caller's group",
      caller: caller({
        memberships: [member(OTHER, 'member')],
        grants: [grant({ organizationId: OWNER }, 'member', { organization: OTHER })],
      }),
      role: 'viewer',
    },
    {
      name: 'only a case grant: the group stays hidden',
      caller: caller({ grants: [grant({ caseId: CASE }, 'administrator', { account: ME })] }),
      role: null,
    },
    {
      name: 'slide-provider member: the group stays hidden',
      caller: caller({ memberships: [member(SLIDES, 'member')] }),
      role: null,
    },
  ];

  it.each(SCENARIOS)('$name → $role', ({ caller, role }) => {
    const access = computeOrganizationAccess(caller, organization());
    if (role == null) {
      expect(access).toBeNull();
    } else {
      const ownsContract = caller.proprietorContractIds.includes(CONTRACT);
      expect(access).toEqual({ role, capabilities: organizationCapabilitiesForRole(role, ownsContract) });
    }
  });

  it('lets a contract proprietor create and delete groups of that contract', () => {
    const access = computeOrganizationAccess(caller({ proprietorContractIds: [CONTRACT] }), organization());
    expect(access?.capabilities.canCreateOrganization).toBe(true);
    expect(access?.capabilities.canDelete).toBe(true);
  });
});
