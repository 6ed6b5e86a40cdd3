import { CaseCapabilitiesSchema, type CaseCapabilities } from '@pathology/contract';
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
  caseFacts,
  grant,
  member,
} from './access-facts.fixtures.ts';
import { canDeleteComment, canUpdateComment, caseCapabilitiesForRole, computeCaseAccess } from './case-capabilities.ts';
import { CASE_ROLES, type CaseRole } from './effective-role.ts';

const CAPABILITIES = CaseCapabilitiesSchema.keyof().options;

// The matrix of effective-role.ts, one column per role in CASE_ROLES order, with every flag of the
// owner group switched on.
// prettier-ignore
const MATRIX: Record<keyof CaseCapabilities, readonly [0 | 1, 0 | 1, 0 | 1, 0 | 1, 0 | 1, 0 | 1, 0 | 1]> = {
  //                         provider read_only partner member administrator proprietor super_user
  canViewPrediction:        [1,       1,        1,      1,     1,            1,         1],
  canViewLabelled:          [1,       1,        1,      1,     1,            1,         1],
  canModifyPrivateLabelled: [1,       1,        1,      1,     1,            1,         1],
  deniedScreenshot:         [1,       1,        0,      0,     0,            0,         0],
  canComment:               [0,       0,        1,      1,     1,            1,         1],
  canEdit:                  [0,       0,        0,      1,     1,            1,         1],
  canUploadImage:           [0,       0,        0,      1,     1,            1,         1],
  canDownloadImage:         [0,       0,        0,      1,     1,            1,         1],
  canRequestPrediction:     [0,       0,        0,      1,     1,            1,         1],
  canRecoverPrediction:     [0,       0,        0,      1,     1,            1,         1],
  canModifyPublicLabelled:  [0,       0,        0,      1,     1,            1,         1],
  canImageNote:             [0,       0,        0,      1,     1,            1,         1],
  canDownloadDrawings:      [0,       0,        0,      1,     1,            1,         1],
  canCreateDrawing:         [0,       0,        0,      1,     1,            1,         1],
  canDelete:                [0,       0,        0,      0,     1,            1,         1],
  canShare:                 [0,       0,        0,      0,     1,            1,         1],
  canTransfer:              [0,       0,        0,      0,     1,            1,         1],
};

const expected = (role: CaseRole, capability: keyof CaseCapabilities): boolean =>
  MATRIX[capability][CASE_ROLES.indexOf(role)] === 1;

const ALL_ON = caseFacts().ownerOrganization;

describe('case capabilities per role', () => {
  it('the matrix covers every capability of the contract', () => {
    expect(Object.keys(MATRIX).sort()).toEqual([...CAPABILITIES].sort());
  });

  describe.each(CASE_ROLES)('%s', (role) => {
    it.each(CAPABILITIES)('%s', (capability) => {
      expect(caseCapabilitiesForRole(role, ALL_ON)[capability]).toBe(expected(role, capability));
    });
  });
});

describe("the owner group's flags", () => {
  const FLAGS = [
    { flag: { predictionEnabled: false }, off: ['canRequestPrediction', 'canRecoverPrediction'] },
    { flag: { downloadDrawingsEnabled: false }, off: ['canDownloadDrawings'] },
    { flag: { drawingCreationDenied: true }, off: ['canCreateDrawing'] },
  ] as const;

  describe.each(FLAGS)('$flag', ({ flag, off }) => {
    it.each(CASE_ROLES)('turn off only %s for every role, super users included', (role) => {
      const capabilities = caseCapabilitiesForRole(role, { ...ALL_ON, ...flag });
      for (const capability of CAPABILITIES) {
        const turnedOff = (off as readonly string[]).includes(capability);
        expect(capabilities[capability], capability).toBe(turnedOff ? false : expected(role, capability));
      }
    });
  });

  it('leave viewing predictions made before prediction was switched off', () => {
    const capabilities = caseCapabilitiesForRole('read_only', { ...ALL_ON, predictionEnabled: false });
    expect(capabilities.canViewPrediction).toBe(true);
  });
});

describe('effective role on a case', () => {
  const SCENARIOS: { name: string; caller: CallerAccess; role: CaseRole | null }[] = [
    { name: 'nobody: no relation at all', caller: caller(), role: null },
    {
      name: 'member of an unrelated group',
      caller: caller({ memberships: [member(OTHER, 'proprietor')] }),
      role: null,
    },
    { name: 'read_only member', caller: caller({ memberships: [member(OWNER, 'read_only')] }), role: 'read_only' },
    { name: 'member', caller: caller({ memberships: [member(OWNER, 'member')] }), role: 'member' },
    {
      name: 'administrator',
      caller: caller({ memberships: [member(OWNER, 'administrator')] }),
      role: 'administrator',
    },
    { name: 'proprietor', caller: caller({ memberships: [member(OWNER, 'proprietor')] }), role: 'proprietor' },
    {
      name: 'member of the slide-provider group',
      caller: caller({ memberships: [member(SLIDES, 'administrator')] }),
      role: 'provider',
    },
    {
      name: 'member of a partner group',
      caller: caller({ memberships: [member(PARTNER, 'member')] }),
      role: 'partner',
    },
    {
      name: 'read_only member of a partner group (capped at home role)',
      caller: caller({ memberships: [member(PARTNER, 'read_only')] }),
      role: 'read_only',
    },
    {
      name: "proprietor of the owner group's contract",
      caller: caller({ proprietorContractIds: [CONTRACT] }),
      role: 'proprietor',
    },
    { name: 'proprietor of another contract', caller: caller({ proprietorContractIds: [OTHER_CONTRACT] }), role: null },
    { name: 'super user', caller: caller({ isSuperUser: true }), role: 'super_user' },
    {
      name: 'case grant (read_only) to the account',
      caller: caller({ grants: [grant({ caseId: CASE }, 'read_only', { account: ME })] }),
      role: 'read_only',
    },
    {
      name: 'case grant (member) to the account',
      caller: caller({ grants: [grant({ caseId: CASE }, 'member', { account: ME })] }),
      role: 'member',
    },
    {
      name: 'case grant (administrator) to the account',
      caller: caller({ grants: [grant({ caseId: CASE }, 'administrator', { account: ME })] }),
      role: 'administrator',
    },
    {
      name: 'case grant to another account',
      caller: caller({ grants: [grant({ caseId: CASE }, 'administrator', { account: 'someone-else' })] }),
      role: null,
    },
    {
      name: 'grant on another case',
      caller: caller({ grants: [grant({ caseId: 'case-2' }, 'administrator', { account: ME })] }),
      role: null,
    },
    {
      name: 'organization grant (member) to the account',
      caller: caller({ grants: [grant({ organizationId: OWNER }, 'member', { account: ME })] }),
      role: 'member',
    },
    {
      name: 'organization grant on another group',
      caller: caller({ grants: [grant({ organizationId: OTHER }, 'proprietor', { account: ME })] }),
      role: null,
    },
    {
      name: 'case grant (member) to a group the caller administers',
      caller: caller({
        memberships: [member(OTHER, 'administrator')],
        grants: [grant({ caseId: CASE }, 'member', { organization: OTHER })],
      }),
      role: 'member',
    },
    {
      name: 'organization grant (administrator) to a group where the caller is member (capped)',
      caller: caller({
        memberships: [member(OTHER, 'member')],
        grants: [grant({ organizationId: OWNER }, 'administrator', { organization: OTHER })],
      }),
      role: 'member',
    },
    {
      name: 'organization grant (member) to a group where the caller is read_only (capped)',
      caller: caller({
        memberships: [member(OTHER, 'read_only')],
        grants: [grant({ organizationId: OWNER }, 'member', { organization: OTHER })],
      }),
      role: 'read_only',
    },
    {
      name: 'grant to a group the caller is not in',
      caller: caller({ grants: [grant({ organizationId: OWNER }, 'member', { organization: OTHER })] }),
      role: null,
    },
    {
      name: 'the highest source wins: read_only member with an administrator case grant',
      caller: caller({
        memberships: [member(OWNER, 'read_only')],
        grants: [grant({ caseId: CASE }, 'administrator', { account: ME })],
      }),
      role: 'administrator',
    },
    {
      name: 'the highest source wins: member who is also a partner and a slide provider',
      caller: caller({
        memberships: [member(OWNER, 'member'), member(PARTNER, 'proprietor'), member(SLIDES, 'member')],
      }),
      role: 'member',
    },
  ];

  it.each(SCENARIOS)('$name → $role', ({ caller, role }) => {
    const access = computeCaseAccess(caller, caseFacts());
    if (role == null) {
      expect(access).toBeNull();
    } else {
      expect(access).toEqual({ role, capabilities: caseCapabilitiesForRole(role, ALL_ON) });
    }
  });

  it('sees no slide-provider access on a case without a provider group', () => {
    const kase = { ...caseFacts(), intendedOwnerOrganizationId: null };
    expect(computeCaseAccess(caller({ memberships: [member(SLIDES, 'member')] }), kase)).toBeNull();
  });
});

describe('comment rules', () => {
  const mine = { accountId: ME };
  const theirs = { accountId: 'someone-else' };
  const of = (role: CaseRole) => caseCapabilitiesForRole(role, ALL_ON);

  it.each([
    // role, update own, delete own, update theirs, delete theirs
    ['provider', false, false, false, false],
    ['read_only', false, false, false, false],
    ['partner', true, true, false, false],
    ['member', true, true, true, true],
    ['administrator', true, true, true, true],
    ['proprietor', true, true, true, true],
    ['super_user', true, true, true, true],
  ] as const)('%s: update own %s, delete own %s, update others %s, delete others %s', (role, uo, dO, ut, dt) => {
    expect(canUpdateComment(of(role), mine, ME)).toBe(uo);
    expect(canDeleteComment(of(role), mine, ME)).toBe(dO);
    expect(canUpdateComment(of(role), theirs, ME)).toBe(ut);
    expect(canDeleteComment(of(role), theirs, ME)).toBe(dt);
  });

  it('lets delete alone remove a comment (spec: edit or delete)', () => {
    const deleteOnly = { ...of('read_only'), canDelete: true };
    expect(canDeleteComment(deleteOnly, theirs, ME)).toBe(true);
    expect(canUpdateComment(deleteOnly, theirs, ME)).toBe(false);
  });

  it('treats a comment whose author was deleted as nobody’s', () => {
    expect(canUpdateComment(of('partner'), { accountId: null }, ME)).toBe(false);
  });
});
