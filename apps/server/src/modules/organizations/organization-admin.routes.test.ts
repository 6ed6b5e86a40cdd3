import { MESSAGES } from '@pathology/contract';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { demoCall, type DemoKey } from '#test/demo-callers.ts';
import { useTestApp } from '#test/test-app.ts';
import { organizations } from '../../db/schema/index.ts';
import { DEMO_GROUPS } from '../../db/seed/demo-groups.ts';
import { seedDemo } from '../../db/seed/demo.ts';

describe('groups: detail, settings, creation and deletion (part 3 §2, §3, §7)', () => {
  const t = useTestApp();
  const ids = {} as Record<keyof typeof DEMO_GROUPS, string>;
  let sakuraContractId: string;
  let providerContractId: string;

  beforeAll(async () => {
    await seedDemo(t.database.db);
    const rows = await t.database.db.select().from(organizations);
    for (const [key, group] of Object.entries(DEMO_GROUPS)) {
      const row = rows.find((candidate) => candidate.name === group.name)!;
      ids[key as keyof typeof DEMO_GROUPS] = row.id;
    }
    sakuraContractId = rows.find((row) => row.id === ids.central)!.contractId;
    providerContractId = rows.find((row) => row.id === ids.provider)!.contractId;
  });

  const call = (key: DemoKey, method: Parameters<typeof demoCall>[2], url: string, payload?: object) =>
    demoCall(t, key, method, url, payload);

  it('returns every field of a group with its storage use to those who may see it, 404 to others', async () => {
    const response = await call('member', 'GET', `/organizations/${ids.central}`);
    expect(response.statusCode).toBe(200);
    const group = response.json();
    expect(group).toMatchObject({ name: DEMO_GROUPS.central.name, predictionEnabled: true, storageLimitGb: null });
    expect(group.usedStorage.totalBytes).toBe(
      group.usedStorage.originalBytes + group.usedStorage.pyramidalBytes + group.usedStorage.attachmentBytes,
    );
    expect(group.memberCount).toBeGreaterThan(0);
    expect((await call('member', 'GET', `/organizations/${ids.harbor}`)).statusCode).toBe(404);
    expect((await call('staff', 'GET', `/organizations/${ids.central}`)).statusCode).toBe(404);
    expect((await call('member', 'GET', '/organizations/not-a-uuid')).statusCode).toBe(404);
    expect((await call('super', 'GET', `/organizations/${ids.harbor}`)).statusCode).toBe(200);
  });

  it('lets administrators edit the group, and only the contract owner change limits and flags', async () => {
    const renamed = await call('admin', 'PATCH', `/organizations/${ids.central}`, { phone: '+81 3-1111-2222' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().phone).toBe('+81 3-1111-2222');

    for (const key of ['member', 'readOnly'] as const) {
      expect((await call(key, 'PATCH', `/organizations/${ids.central}`, { phone: 'x' })).statusCode).toBe(403);
    }
    expect((await call('staff', 'PATCH', `/organizations/${ids.central}`, { phone: 'x' })).statusCode).toBe(404);

    const limit = await call('admin', 'PATCH', `/organizations/${ids.central}`, { storageLimitGb: 9999 });
    expect(limit.statusCode).toBe(403);
    expect(limit.json().message).toBe(MESSAGES.organizationSettingsOwnerOnly);

    const owner = await call('owner', 'PATCH', `/organizations/${ids.central}`, {
      storageLimitGb: 750,
      downloadDrawingsEnabled: false,
    });
    expect(owner.statusCode).toBe(200);
    expect(owner.json()).toMatchObject({ storageLimitGb: 750, downloadDrawingsEnabled: false });
    const cleared = await call('owner', 'PATCH', `/organizations/${ids.central}`, { storageLimitGb: null });
    expect(cleared.json().storageLimitGb).toBeNull();

    const invalid = await call('owner', 'PATCH', `/organizations/${ids.central}`, { name: ' ', storageLimitGb: -1 });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().errors).toMatchObject({ name: MESSAGES.fieldRequired });
  });

  it("creates groups in the caller's own contract up to its limit", async () => {
    expect(
      (await call('admin', 'POST', '/organizations', { name: 'New', contractId: sakuraContractId })).statusCode,
    ).toBe(403);
    // A contract the caller may not see answers as one that does not exist (404); their own group's contract 403.
    const unknownContract = '00000000-0000-4000-8000-000000000000';
    for (const contractId of [sakuraContractId, unknownContract]) {
      const hidden = await call('staff', 'POST', '/organizations', { name: 'New', contractId });
      expect(hidden.statusCode, contractId).toBe(404);
    }
    expect(
      (await call('staff', 'POST', '/organizations', { name: 'New', contractId: providerContractId })).statusCode,
    ).toBe(403);
    expect(
      (await call('owner', 'POST', '/organizations', { name: 'New', contractId: providerContractId })).statusCode,
    ).toBe(404);

    // The Sakura contract holds at most 5 groups and has 3.
    for (const name of ['Sakura West Clinic', 'Sakura Research Lab']) {
      const created = await call('owner', 'POST', '/organizations', {
        name,
        contractId: sakuraContractId,
        storageLimitGb: 10,
      });
      expect(created.statusCode).toBe(201);
      expect(created.json()).toMatchObject({ name, storageLimitGb: 10, contractId: sakuraContractId });
      expect(created.json().userCapabilities.canDelete).toBe(true);
    }
    const over = await call('owner', 'POST', '/organizations', { name: 'One too many', contractId: sakuraContractId });
    expect(over.statusCode).toBe(409);
    expect(over.json().message).toBe(MESSAGES.organizationLimitReached);

    const bySuper = await call('super', 'POST', '/organizations', {
      name: 'Hosted lab',
      contractId: providerContractId,
    });
    expect(bySuper.statusCode).toBe(201);
  });

  it('deletes a group with its cases only when asked to, after a purge check; others get 403', async () => {
    const check = await call('owner', 'GET', `/organizations/lazy/${ids.university}/purge-check`);
    expect(check.statusCode).toBe(200);
    expect(check.json().caseCount).toBe(DEMO_GROUPS.university.caseCount);
    expect((await call('admin', 'GET', `/organizations/lazy/${ids.university}/purge-check`)).statusCode).toBe(403);

    for (const key of ['admin', 'member'] as const) {
      expect((await call(key, 'DELETE', `/organizations/lazy/${ids.university}?recursive=true`)).statusCode).toBe(403);
    }
    for (const key of ['readOnly', 'staff'] as const) {
      expect((await call(key, 'DELETE', `/organizations/lazy/${ids.university}`)).statusCode).toBe(404);
    }

    const refused = await call('owner', 'DELETE', `/organizations/lazy/${ids.university}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(MESSAGES.organizationHasCases);

    expect((await call('owner', 'DELETE', `/organizations/lazy/${ids.university}?recursive=true`)).statusCode).toBe(
      204,
    );
    expect(await t.database.db.select().from(organizations).where(eq(organizations.id, ids.university))).toEqual([]);
    expect((await call('owner', 'GET', `/organizations/${ids.university}`)).statusCode).toBe(404);
  });

  it("lists the caller's own memberships", async () => {
    const response = await call('member', 'GET', '/organizations/me/memberships');
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toContainEqual({
      organizationId: ids.central,
      organizationName: DEMO_GROUPS.central.name,
      role: 'member',
    });
    expect(response.json().data.every((row: { role: string }) => row.role === 'member')).toBe(true);
  });
});
