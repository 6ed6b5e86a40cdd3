import { MESSAGES } from '@pathology/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { demoCall, type DemoKey } from '#test/demo-callers.ts';
import { useTestApp } from '#test/test-app.ts';
import { organizations } from '../../db/schema/index.ts';
import { DEMO_GROUPS } from '../../db/seed/demo-groups.ts';
import { seedDemo } from '../../db/seed/demo.ts';

const NEW_CONTRACT = {
  name: 'Minato Clinic Network',
  plan: 'standard',
  startDate: '2026-12-01',
  endDate: '2029-11-30',
  contractorName: 'Minato Clinic Network Co.',
  details: null,
  countryCode: 'JP',
  postalCode: '105-0011',
  address: '4-2-8 Shibakoen, Minato-ku, Tokyo',
  tel: '+81 3-0000-3000',
  emergencyContact: null,
  billingContact: 'billing@minato.example',
  maxOrganizations: 2,
  storageLimitGb: 500,
};

describe('contracts: list, create, edit, delete, authentications, proprietors and groups (part 3 §2, §7)', () => {
  const t = useTestApp();
  let sakura: string;
  let provider: string;

  beforeAll(async () => {
    await seedDemo(t.database.db);
    const rows = await t.database.db.select().from(organizations);
    sakura = rows.find((row) => row.name === DEMO_GROUPS.central.name)!.contractId;
    provider = rows.find((row) => row.name === DEMO_GROUPS.provider.name)!.contractId;
  });

  const call = (key: DemoKey, method: Parameters<typeof demoCall>[2], url: string, payload?: object) =>
    demoCall(t, key, method, url, payload);

  it("lists a proprietor's own contracts, every contract to super users, none to others", async () => {
    const owner = (await call('owner', 'GET', '/contracts')).json();
    expect(owner.data.map((contract: { name: string }) => contract.name)).toEqual(['Sakura Medical Group']);
    expect(owner.data[0]).toMatchObject({
      organizationCount: 3,
      proprietors: [expect.objectContaining({ email: 'owner@demo.test' })],
      userCapabilities: { canEdit: true, canDelete: false, canCreate: true },
      authenticatedAt: null,
    });
    expect((await call('super', 'GET', '/contracts')).json().data).toHaveLength(2);
    for (const key of ['member', 'admin', 'readOnly', 'staff'] as const) {
      expect((await call(key, 'GET', '/contracts')).json().data).toEqual([]);
    }
    expect((await call('owner', 'GET', `/contracts/${provider}`)).statusCode).toBe(404);
    expect((await call('member', 'GET', `/contracts/${sakura}/organizations`)).json().data).toHaveLength(3);
    expect((await call('member', 'GET', `/contracts/${sakura}/proprietors`)).statusCode).toBe(403);
  });

  it('lets provider employees, proprietors and super users create contracts; a non-super creator owns it', async () => {
    const byOwner = await call('owner', 'POST', '/contracts', { ...NEW_CONTRACT, name: 'Sakura Kyoto' });
    expect(byOwner.statusCode).toBe(201);
    expect(byOwner.json().proprietors).toEqual([expect.objectContaining({ email: 'owner@demo.test' })]);
    for (const key of ['admin', 'member', 'readOnly'] as const) {
      expect((await call(key, 'POST', '/contracts', NEW_CONTRACT)).statusCode).toBe(403);
    }
    const created = await call('staff', 'POST', '/contracts', NEW_CONTRACT);
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ ...NEW_CONTRACT, organizationCount: 0 });
    expect(created.json().proprietors).toEqual([expect.objectContaining({ email: 'staff@demo.test' })]);

    const invalid = await call('super', 'POST', '/contracts', { ...NEW_CONTRACT, name: '', endDate: '2020-01-01' });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().errors).toMatchObject({ name: MESSAGES.fieldRequired, endDate: expect.any(String) });
  });

  it('lets proprietors edit, super users authenticate and delete empty contracts', async () => {
    const edited = await call('owner', 'PATCH', `/contracts/${sakura}`, { tel: '+81 3-9999-0000' });
    expect(edited.json().tel).toBe('+81 3-9999-0000');
    expect((await call('admin', 'PATCH', `/contracts/${sakura}`, { tel: 'x' })).statusCode).toBe(403);
    expect((await call('staff', 'PATCH', `/contracts/${sakura}`, { tel: 'x' })).statusCode).toBe(404);

    expect((await call('owner', 'POST', `/contracts/${sakura}/authentications`)).statusCode).toBe(403);
    const authenticated = await call('super', 'POST', `/contracts/${sakura}/authentications`);
    expect(authenticated.json().authenticatedAt).toEqual(expect.any(String));
    const withdrawn = await call('super', 'DELETE', `/contracts/${sakura}/authentications`);
    expect(withdrawn.json().authenticatedAt).toBeNull();

    expect((await call('owner', 'DELETE', `/contracts/${sakura}`)).statusCode).toBe(403);
    const refused = await call('super', 'DELETE', `/contracts/${sakura}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(MESSAGES.contractHasGroups);
    const empty = (await call('super', 'POST', '/contracts', { ...NEW_CONTRACT, name: 'Short-lived' })).json();
    expect((await call('super', 'DELETE', `/contracts/${empty.id}`)).statusCode).toBe(204);
    expect((await call('super', 'GET', `/contracts/${empty.id}`)).statusCode).toBe(404);
  });

  it('removes a proprietor, with purge deleting an account that belongs nowhere else', async () => {
    const invited = await call('owner', 'POST', `/contracts/${sakura}/invitations`, { email: 'co.owner@example.test' });
    expect(invited.statusCode).toBe(201);
    // Not a proprietor until the invitation is accepted.
    expect((await call('owner', 'DELETE', `/contracts/${sakura}/proprietors/co.owner@example.test`)).statusCode).toBe(
      404,
    );
    expect((await call('admin', 'DELETE', `/contracts/${sakura}/proprietors/owner@demo.test`)).statusCode).toBe(403);
    const removed = await call('super', 'DELETE', `/contracts/${sakura}/proprietors/OWNER@demo.test?purge=true`);
    // Still a member of the contract's groups, so the account stays.
    expect(removed.json()).toEqual({ accountDeleted: false });
    expect((await call('super', 'GET', `/contracts/${sakura}/proprietors`)).json().data).toEqual([]);
  });
});
