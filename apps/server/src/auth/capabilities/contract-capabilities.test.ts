import type { ContractCapabilities } from '@pathology/contract';
import { describe, expect, it } from 'vitest';
import type { CallerAccess } from './access-facts.ts';
import { CONTRACT, OTHER, OTHER_CONTRACT, OWNER, caller, member } from './access-facts.fixtures.ts';
import { computeContractAccess } from './contract-capabilities.ts';

const PROVIDER_GROUP = 'org-provider';
const providerEmployee = { isProviderEmployee: true, memberships: [member(PROVIDER_GROUP, 'member')] };

const none = {
  canCreate: false,
  canDelete: false,
  canEdit: false,
  canInviteUser: false,
  canRemoveMember: false,
  canSee: false,
  canSeeOtherUsedFileSize: false,
} satisfies ContractCapabilities;
const seer = { ...none, canSee: true };
const proprietor = {
  ...seer,
  canEdit: true,
  canInviteUser: true,
  canRemoveMember: true,
  canSeeOtherUsedFileSize: true,
  // Owning a contract lets one open further contracts.
  canCreate: true,
};

describe('contract capabilities', () => {
  const SCENARIOS: { name: string; caller: CallerAccess; expected: ContractCapabilities | null }[] = [
    { name: 'nobody', caller: caller(), expected: null },
    {
      name: 'member of a group of another contract',
      caller: caller({ memberships: [member(OTHER, 'proprietor')] }),
      expected: null,
    },
    {
      name: 'read_only member of one of its groups',
      caller: caller({ memberships: [member(OWNER, 'read_only')] }),
      expected: seer,
    },
    {
      name: 'administrator of one of its groups',
      caller: caller({ memberships: [member(OWNER, 'administrator')] }),
      expected: seer,
    },
    { name: 'its proprietor', caller: caller({ proprietorContractIds: [CONTRACT] }), expected: proprietor },
    {
      name: 'proprietor of another contract',
      caller: caller({ proprietorContractIds: [OTHER_CONTRACT] }),
      expected: null,
    },
    { name: 'provider employee without relation to it', caller: caller(providerEmployee), expected: null },
    {
      name: 'provider employee who is a member of one of its groups',
      caller: caller({ ...providerEmployee, memberships: [...providerEmployee.memberships, member(OWNER, 'member')] }),
      expected: { ...seer, canCreate: true },
    },
    {
      name: 'super user',
      caller: caller({ isSuperUser: true }),
      expected: { ...proprietor, canCreate: true, canDelete: true },
    },
  ];

  it.each(SCENARIOS)('$name', ({ caller, expected }) => {
    expect(computeContractAccess(caller, CONTRACT)).toEqual(expected);
  });

  it('keeps delete for super users, even against the proprietor', () => {
    expect(computeContractAccess(caller({ proprietorContractIds: [CONTRACT] }), CONTRACT)?.canDelete).toBe(false);
  });
});
