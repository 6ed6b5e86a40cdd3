import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '#test/test-database.ts';
import { factories } from '#test/factories.ts';
import { cases } from '../../db/schema/index.ts';
import type { Caller } from '../caller.ts';
import { createAccessRepository, visibleCasesCondition } from './access.repository.ts';
import { createCapabilitiesService, type CapabilitiesService } from './capabilities.service.ts';

describe('capabilities service on PostgreSQL', () => {
  let database: TestDatabase;
  let service: CapabilitiesService;
  let make: ReturnType<typeof factories>;

  beforeAll(async () => {
    database = await createTestDatabase();
    service = createCapabilitiesService(createAccessRepository(database.db));
    make = factories(database.db);
  });
  afterAll(async () => {
    await database?.close();
  });

  const visibleCaseIds = async (caller: Caller): Promise<string[]> => {
    const rows = await database.db.select({ id: cases.id }).from(cases).where(visibleCasesCondition(caller));
    return rows.map((row) => row.id).sort();
  };

  it('lets a member see and edit; a stranger gets 404', async () => {
    const group = await make.organization({ predictionEnabled: true });
    const caseId = await make.case({ ownerOrganizationId: group });
    const alice = await make.caller();
    const stranger = await make.caller();
    await make.join(alice, group, 'member');

    const capabilities = await service.getCaseCapabilities(alice, caseId);
    expect(capabilities).toMatchObject({
      canEdit: true,
      canComment: true,
      canRequestPrediction: true,
      canDelete: false,
    });
    await expect(service.requireCaseCapability(alice, caseId, 'canEdit')).resolves.toMatchObject({ role: 'member' });
    await expect(service.requireCaseCapability(alice, caseId, 'canDelete')).rejects.toMatchObject({ statusCode: 403 });

    expect(await service.getCaseCapabilities(stranger, caseId)).toBeNull();
    await expect(service.requireCaseCapability(stranger, caseId, 'canEdit')).rejects.toMatchObject({ statusCode: 404 });
    await expect(service.requireCaseVisible(alice, randomUUID())).rejects.toMatchObject({ statusCode: 404 });
    expect(await service.getCaseCapabilities(alice, 'not-a-uuid')).toBeNull();
  });

  it('lets a partner-group member see and comment but not edit', async () => {
    const owner = await make.organization();
    const partnerGroup = await make.organization();
    await make.partner(owner, partnerGroup);
    const caseId = await make.case({ ownerOrganizationId: owner });
    const bob = await make.caller();
    await make.join(bob, partnerGroup, 'member');

    const access = await service.requireCaseCapability(bob, caseId, 'canComment');
    expect(access.role).toBe('partner');
    expect(access.capabilities).toMatchObject({ canComment: true, canEdit: false, deniedScreenshot: false });
    await expect(service.requireCaseCapability(bob, caseId, 'canEdit')).rejects.toMatchObject({ statusCode: 403 });
    // Partners see the group's cases, not its administration.
    expect(await service.getOrganizationAccess(bob, owner)).toMatchObject({ role: 'viewer' });
    await expect(service.requireOrganizationCapability(bob, owner, 'canCreateCase')).rejects.toMatchObject({
      statusCode: 403,
    });
  });

  it('opens one case to an account through a case grant', async () => {
    const group = await make.organization();
    const granted = await make.case({ ownerOrganizationId: group });
    const sibling = await make.case({ ownerOrganizationId: group });
    const carol = await make.caller();
    expect(await service.getCaseCapabilities(carol, granted)).toBeNull();

    await make.grant({ caseId: granted }, 'administrator', { account: carol.accountId });
    expect(await service.getCaseCapabilities(carol, granted)).toMatchObject({ canEdit: true, canShare: true });
    expect(await service.getCaseCapabilities(carol, sibling)).toBeNull();
    expect(await visibleCaseIds(carol)).toEqual([granted]);
  });

  it("opens a group's cases to another group's members through an organization grant, capped by their role", async () => {
    const owner = await make.organization();
    const guests = await make.organization();
    const first = await make.case({ ownerOrganizationId: owner });
    const second = await make.case({ ownerOrganizationId: owner });
    const dave = await make.caller();
    const erin = await make.caller();
    await make.join(dave, guests, 'member');
    await make.join(erin, guests, 'read_only');
    await expect(service.requireCaseVisible(dave, first)).rejects.toMatchObject({ statusCode: 404 });

    await make.grant({ organizationId: owner }, 'administrator', { organization: guests });
    const many = await service.getManyCaseCapabilities(dave, [first, second]);
    expect([...many.keys()].sort()).toEqual([first, second].sort());
    expect(many.get(first)).toMatchObject({ canEdit: true, canDelete: false });
    expect((await service.requireCaseVisible(erin, second)).role).toBe('read_only');
    expect(await visibleCaseIds(dave)).toEqual([first, second].sort());
  });

  it('gives contract proprietors, slide providers and super users their access', async () => {
    const contractId = await make.contract();
    const group = await make.organization({ contractId });
    const slides = await make.organization();
    const caseId = await make.case({ ownerOrganizationId: group, intendedOwnerOrganizationId: slides });
    const owner = await make.caller();
    const provider = await make.caller();
    const root = await make.caller({ isSuperUser: true });
    await make.ownContract(owner, contractId);
    await make.join(provider, slides, 'administrator');

    expect((await service.requireCaseCapability(owner, caseId, 'canDelete')).role).toBe('proprietor');
    expect(await service.getCaseAccess(provider, caseId)).toMatchObject({
      role: 'provider',
      capabilities: { canEdit: false, deniedScreenshot: true },
    });
    expect((await service.requireCaseCapability(root, caseId, 'canTransfer')).role).toBe('super_user');
    expect(await service.getOrganizationCapabilities(owner, group)).toMatchObject({ canCreateOrganization: true });
    expect(await visibleCaseIds(provider)).toEqual([caseId]);
  });

  it('answers organizations and contracts with 404 to strangers and 403 to those who see them', async () => {
    const contractId = await make.contract();
    const group = await make.organization({ contractId });
    const reader = await make.caller();
    const admin = await make.caller();
    const stranger = await make.caller();
    await make.join(reader, group, 'read_only');
    await make.join(admin, group, 'administrator');

    await expect(service.requireOrganizationCapability(reader, group, 'canCreateCase')).rejects.toMatchObject({
      statusCode: 403,
    });
    await expect(service.requireOrganizationCapability(admin, group, 'canInviteUser')).resolves.toBeDefined();
    await expect(service.requireOrganizationVisible(stranger, group)).rejects.toMatchObject({ statusCode: 404 });
    await expect(service.requireOrganizationVisible(admin, randomUUID())).rejects.toMatchObject({ statusCode: 404 });

    expect(await service.getContractCapabilities(reader, contractId)).toMatchObject({ canSee: true, canEdit: false });
    await expect(service.requireContractCapability(admin, contractId, 'canEdit')).rejects.toMatchObject({
      statusCode: 403,
    });
    await expect(service.requireContractCapability(stranger, contractId, 'canSee')).rejects.toMatchObject({
      statusCode: 404,
    });
  });

  it('computes role checks, provider employees included', async () => {
    const providerGroup = await make.organization({ isProvider: true });
    const employee = await make.caller();
    await make.join(employee, providerGroup, 'read_only');
    expect(await service.getRoleChecks(employee)).toMatchObject({
      isProviderEmployee: true,
      canCreateContract: true,
      isMember: false,
    });
    await expect(service.requireRoleCheck(await make.caller(), 'canCreateContract')).rejects.toMatchObject({
      statusCode: 403,
    });
  });

  it('filters case search with visibleCasesCondition exactly like the per-case rules', async () => {
    const contractId = await make.contract();
    const home = await make.organization({ contractId });
    const partnered = await make.organization();
    const granting = await make.organization();
    const slides = await make.organization();
    const unrelated = await make.organization();
    const frank = await make.caller();
    await make.join(frank, home, 'read_only');
    await make.partner(partnered, home);
    await make.grant({ organizationId: granting }, 'member', { organization: home });

    const homeCase = await make.case({ ownerOrganizationId: home });
    const partneredCase = await make.case({ ownerOrganizationId: partnered });
    const grantingCase = await make.case({ ownerOrganizationId: granting });
    const providedCase = await make.case({ ownerOrganizationId: unrelated, intendedOwnerOrganizationId: slides });
    const singleGrant = await make.case({ ownerOrganizationId: unrelated });
    const hidden = await make.case({ ownerOrganizationId: unrelated });
    await make.grant({ caseId: singleGrant }, 'read_only', { account: frank.accountId });
    await make.join(frank, slides, 'member');

    const expected = [homeCase, partneredCase, grantingCase, providedCase, singleGrant].sort();
    expect(await visibleCaseIds(frank)).toEqual(expected);

    const all = (await database.db.select({ id: cases.id }).from(cases)).map((row) => row.id);
    expect(all).toContain(hidden);
    const perCase = await service.getManyCaseCapabilities(frank, all);
    expect([...perCase.keys()].sort()).toEqual(expected);

    // A contract proprietor sees every case of the contract's groups; a super user sees everything.
    const owner = await make.caller();
    await make.ownContract(owner, contractId);
    expect(await visibleCaseIds(owner)).toEqual([homeCase]);
    expect(await visibleCaseIds(await make.caller({ isSuperUser: true }))).toEqual([...all].sort());
  });
});
