import { and, eq, ne } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { demoCall, type DemoKey } from '#test/demo-callers.ts';
import { useTestApp } from '#test/test-app.ts';
import { accounts, memberships, organizations } from '../../db/schema/index.ts';
import { DEMO_GROUPS } from '../../db/seed/demo-groups.ts';
import { seedDemo } from '../../db/seed/demo.ts';

describe('the Users screen API: members, roles, removal, partners and group grants (part 3 §2, §7)', () => {
  const t = useTestApp();
  let central: string;
  let harbor: string;

  beforeAll(async () => {
    await seedDemo(t.database.db);
    const rows = await t.database.db.select().from(organizations);
    central = rows.find((row) => row.name === DEMO_GROUPS.central.name)!.id;
    harbor = rows.find((row) => row.name === DEMO_GROUPS.harbor.name)!.id;
  });

  const call = (key: DemoKey, method: Parameters<typeof demoCall>[2], url: string, payload?: object) =>
    demoCall(t, key, method, url, payload);

  it('pages, sorts and filters the members for administrators; others get 403 or 404', async () => {
    const first = await call('admin', 'GET', `/organizations/${central}/memberships`);
    expect(first.statusCode).toBe(200);
    const { data, total } = first.json();
    expect(data.length).toBe(Math.min(total, 10));
    const emails = data.map((row: { email: string }) => row.email);
    expect(emails).toEqual([...emails].sort());
    expect(data[0]).toMatchObject({ roles: [expect.any(String)], invited: false, emailVerified: true });

    const sorted = await call('admin', 'GET', `/organizations/${central}/memberships?field=firstName&direction=desc`);
    const firstNames = sorted.json().data.map((row: { firstName: string }) => row.firstName);
    expect(firstNames).toEqual([...firstNames].sort().reverse());

    const filtered = await call(
      'admin',
      'GET',
      `/organizations/${central}/memberships?filterField=role&filterValue=read_only`,
    );
    expect(filtered.json().data.map((row: { email: string }) => row.email)).toEqual(['read_only@demo.test']);
    const byName = await call(
      'admin',
      'GET',
      `/organizations/${central}/memberships?filterField=email&filterValue=MEMB`,
    );
    expect(byName.json()).toMatchObject({ total: 1, data: [{ email: 'member@demo.test' }] });
    const pastTheEnd = await call('admin', 'GET', `/organizations/${central}/memberships?page=99`);
    expect(pastTheEnd.json()).toEqual({ data: [], total, teams: [] });

    for (const key of ['member', 'readOnly'] as const) {
      expect((await call(key, 'GET', `/organizations/${central}/memberships`)).statusCode).toBe(403);
      expect((await call(key, 'GET', `/organizations/${central}/memberships/all`)).statusCode).toBe(403);
    }
    expect((await call('staff', 'GET', `/organizations/${central}/memberships`)).statusCode).toBe(404);
    expect((await call('member', 'GET', `/organizations/${harbor}/memberships`)).statusCode).toBe(404);
    expect((await call('super', 'GET', `/organizations/${harbor}/memberships`)).statusCode).toBe(200);
    expect((await call('owner', 'GET', `/organizations/${central}/memberships/all`)).json().total).toBe(total);
  });

  it("changes roles up to the caller's own, and never another's above it", async () => {
    const url = `/organizations/${central}/memberships/read_only@demo.test`;
    const changed = await call('admin', 'PATCH', url, { roles: ['member'] });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ email: 'read_only@demo.test', roles: ['member'] });
    expect((await call('admin', 'PATCH', url, { roles: ['proprietor'] })).statusCode).toBe(403);
    expect((await call('member', 'PATCH', url, { roles: ['read_only'] })).statusCode).toBe(403);
    expect((await call('owner', 'PATCH', url, { roles: ['read_only'] })).json().roles).toEqual(['read_only']);
    expect(
      (await call('admin', 'PATCH', `/organizations/${central}/memberships/nobody@x.test`, { roles: ['member'] }))
        .statusCode,
    ).toBe(404);
  });

  it('puts members in teams, and filters by team and by manage type (active members or pending invitations)', async () => {
    const url = `/organizations/${central}/memberships/admin@demo.test`;
    const teamed = await call('admin', 'PATCH', url, { team: ' Cytology ' });
    expect(teamed.json()).toMatchObject({ team: 'Cytology', roles: ['administrator'] });
    const byTeam = (await call('admin', 'GET', `/organizations/${central}/memberships?teamId=Cytology`)).json();
    expect(byTeam).toMatchObject({ total: 1, teams: ['Cytology'], data: [{ email: 'admin@demo.test' }] });
    const tooLong = await call('admin', 'PATCH', url, { team: 'x'.repeat(101) });
    expect(tooLong.json().errors).toEqual({ team: 'This field must be at most 100 characters' });
    expect((await call('admin', 'PATCH', url, { team: '' })).json().team).toBeNull();

    // Everyone but the administrator asking becomes a pending invitation (an invited administrator could not ask).
    const [asking] = await t.database.db.select().from(accounts).where(eq(accounts.email, 'admin@demo.test'));
    await t.database.db
      .update(memberships)
      .set({ invited: true })
      .where(and(eq(memberships.organizationId, central), ne(memberships.accountId, asking!.id)));
    const invited = (await call('admin', 'GET', `/organizations/${central}/memberships?manageType=invited`)).json();
    const active = (await call('admin', 'GET', `/organizations/${central}/memberships?manageType=active`)).json();
    expect(active.data).toEqual([expect.objectContaining({ email: 'admin@demo.test', invited: false })]);
    expect(invited.total).toBeGreaterThan(0);
    await t.database.db.update(memberships).set({ invited: false }).where(eq(memberships.organizationId, central));
  });

  it('removes a member, and with purge their account when it belongs nowhere else', async () => {
    const [colleague] = await t.database.db.select().from(accounts).where(eq(accounts.email, 'k.ito@demo.test'));
    const groups = await t.database.db.select().from(memberships).where(eq(memberships.accountId, colleague!.id));
    expect(groups.length).toBeGreaterThan(0);
    const remove = (key: DemoKey, organizationId: string) =>
      call(key, 'DELETE', `/organizations/${organizationId}/memberships/k.ito@demo.test?purge=true`);
    expect((await remove('member', groups[0]!.organizationId)).statusCode).toBe(403);
    const answers = [];
    for (const group of groups) answers.push((await remove('super', group.organizationId)).json());
    expect(answers.at(-1)).toEqual({ accountDeleted: true });
    expect(answers.slice(0, -1).every((answer) => answer.accountDeleted === false)).toBe(true);
    expect(await t.database.db.select().from(accounts).where(eq(accounts.id, colleague!.id))).toEqual([]);

    const kept = await call('admin', 'DELETE', `/organizations/${central}/memberships/member@demo.test?purge=true`);
    expect(kept.json()).toEqual({ accountDeleted: false });
    expect((await call('admin', 'GET', `/organizations/${central}/memberships/member@demo.test`)).statusCode).toBe(404);
    expect(await t.database.db.select().from(accounts).where(eq(accounts.email, 'member@demo.test'))).toHaveLength(1);
  });

  it('lists partners and group grants to administrators only', async () => {
    const partners = await call('admin', 'GET', `/organizations/${central}/partners`);
    expect(partners.statusCode).toBe(200);
    expect(partners.json()).toMatchObject({ data: expect.any(Array), total: expect.any(Number) });
    expect((await call('readOnly', 'GET', `/organizations/${central}/partners`)).statusCode).toBe(403);

    const grants = await call('admin', 'GET', `/organizations/${central}/grants`);
    expect(grants.statusCode).toBe(200);
    expect((await call('readOnly', 'GET', `/organizations/${central}/grants`)).statusCode).toBe(403);
    expect(
      (
        await call('admin', 'PATCH', `/organizations/${central}/grants/00000000-0000-4000-8000-000000000000`, {
          grantedRole: 'member',
        })
      ).statusCode,
    ).toBe(404);
  });
});
