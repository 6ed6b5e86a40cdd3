import type { RoleChecks } from '@pathology/contract';
import { describe, expect, it } from 'vitest';
import type { CallerAccess } from './access-facts.ts';
import { CONTRACT, OTHER, OWNER, caller, member } from './access-facts.fixtures.ts';
import { computeRoleChecks } from './role-checks.ts';

const none: RoleChecks = {
  isMember: false,
  isAdministrator: false,
  isProprietor: false,
  isProviderEmployee: false,
  isSuperUser: false,
  canSeeOriginalUsedFileSize: false,
  canSeeMemberList: false,
  canCreateOrganization: false,
  canCreateContract: false,
};
const asMember = { ...none, isMember: true, canSeeOriginalUsedFileSize: true };
const asAdministrator = { ...asMember, isAdministrator: true, canSeeMemberList: true };

describe('role checks', () => {
  const SCENARIOS: { name: string; caller: CallerAccess; expected: RoleChecks }[] = [
    { name: 'no group', caller: caller(), expected: none },
    { name: 'read_only everywhere', caller: caller({ memberships: [member(OWNER, 'read_only')] }), expected: none },
    {
      name: 'member in one group, read_only in another',
      caller: caller({ memberships: [member(OWNER, 'read_only'), member(OTHER, 'member')] }),
      expected: asMember,
    },
    {
      name: 'administrator',
      caller: caller({ memberships: [member(OWNER, 'administrator')] }),
      expected: asAdministrator,
    },
    {
      name: 'group proprietor (no contract to put a new group in)',
      caller: caller({ memberships: [member(OWNER, 'proprietor')] }),
      expected: { ...asAdministrator, isProprietor: true },
    },
    {
      name: 'contract proprietor (may open further contracts)',
      caller: caller({ proprietorContractIds: [CONTRACT] }),
      expected: { ...asAdministrator, isProprietor: true, canCreateOrganization: true, canCreateContract: true },
    },
    {
      name: 'provider employee',
      caller: caller({ isProviderEmployee: true, memberships: [member('org-provider', 'member')] }),
      expected: { ...asMember, isProviderEmployee: true, canCreateContract: true },
    },
    {
      name: 'super user',
      caller: caller({ isSuperUser: true }),
      expected: {
        ...asAdministrator,
        isProprietor: true,
        isSuperUser: true,
        canCreateOrganization: true,
        canCreateContract: true,
      },
    },
  ];

  it.each(SCENARIOS)('$name', ({ caller, expected }) => {
    expect(computeRoleChecks(caller)).toEqual(expected);
  });
});
