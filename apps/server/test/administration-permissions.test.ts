import { beforeAll, describe, expect, it } from 'vitest';
import { grants, organizations } from '../src/db/schema/index.ts';
import { DEMO_GROUPS } from '../src/db/seed/demo-groups.ts';
import { seedDemo } from '../src/db/seed/demo.ts';
import { demoCall, type DemoKey } from './demo-callers.ts';
import { useTestApp } from './test-app.ts';

type Method = Parameters<typeof demoCall>[2];

interface Route {
  method: Method;
  url: string;
  body?: object;
  /** Who may not: each answers 403, or 404 when the object must look absent to them. */
  refused: Partial<Record<DemoKey, 403 | 404>>;
}

const MEMBERS_ONLY = { readOnly: 403, member: 403, staff: 404 } as const;
const OWNERS_ONLY = { readOnly: 403, member: 403, admin: 403, staff: 404 } as const;
const SUPER_ONLY = { readOnly: 403, member: 403, admin: 403, owner: 403, staff: 403 } as const;

/**
 * Part 3 §6 for every administration route of issue 18, role by role: read_only, member, administrator, proprietor,
 * provider employee and super user against the Sakura contract and its Central group. Nothing here is allowed to
 * succeed for the refused roles, so the table needs no clean-up: a wrong role changes nothing.
 */
describe('administration routes refuse the wrong role (403) and hide other contracts (404)', () => {
  const t = useTestApp();
  const routes: Route[] = [];

  beforeAll(async () => {
    await seedDemo(t.database.db);
    const rows = await t.database.db.select().from(organizations);
    const central = rows.find((row) => row.name === DEMO_GROUPS.central.name)!;
    const provider = rows.find((row) => row.name === DEMO_GROUPS.provider.name)!;
    // A grant to a group whose members belong to Central anyway, so it lifts no one's role there.
    const northern = rows.find((row) => row.name === DEMO_GROUPS.northern.name)!;
    const [grant] = await t.database.db
      .insert(grants)
      .values({
        resourceType: 'organization',
        organizationId: central.id,
        grantedRole: 'read_only',
        granteeType: 'organization',
        granteeId: northern.id,
      })
      .returning();
    const group = `/organizations/${central.id}`;
    const contract = `/contracts/${central.contractId}`;
    const person = { email: 'someone@example.test', firstName: 'Some', lastName: 'One', roles: ['member'] };
    routes.push(
      { method: 'GET', url: group, refused: { staff: 404 } },
      { method: 'PATCH', url: group, body: { phone: '0' }, refused: MEMBERS_ONLY },
      { method: 'PATCH', url: group, body: { storageLimitGb: 1 }, refused: { ...MEMBERS_ONLY, admin: 403 } },
      {
        method: 'POST',
        url: '/organizations',
        body: { name: 'X', contractId: central.contractId },
        // The provider's employee cannot see the Sakura contract: 404, never a hint that it exists (issue 27).
        refused: { readOnly: 403, member: 403, admin: 403, staff: 404 },
      },
      { method: 'GET', url: `/organizations/lazy/${central.id}/purge-check`, refused: OWNERS_ONLY },
      { method: 'DELETE', url: `/organizations/lazy/${central.id}?recursive=true`, refused: OWNERS_ONLY },
      { method: 'GET', url: `${group}/memberships`, refused: MEMBERS_ONLY },
      { method: 'GET', url: `${group}/memberships/all`, refused: MEMBERS_ONLY },
      { method: 'GET', url: `${group}/memberships/member@demo.test`, refused: MEMBERS_ONLY },
      { method: 'PATCH', url: `${group}/memberships/member@demo.test`, body: { team: 'X' }, refused: MEMBERS_ONLY },
      { method: 'DELETE', url: `${group}/memberships/member@demo.test?purge=true`, refused: MEMBERS_ONLY },
      { method: 'GET', url: `${group}/partners`, refused: MEMBERS_ONLY },
      { method: 'GET', url: `${group}/grants`, refused: MEMBERS_ONLY },
      {
        method: 'PATCH',
        url: `${group}/grants/${grant!.id}`,
        body: { grantedRole: 'member' },
        refused: MEMBERS_ONLY,
      },
      { method: 'POST', url: `${group}/invitations`, body: person, refused: MEMBERS_ONLY },
      { method: 'POST', url: `${group}/invitations/resend`, body: person, refused: MEMBERS_ONLY },
      {
        method: 'POST',
        url: '/contracts',
        body: {
          name: 'X',
          plan: 'p',
          startDate: '2026-01-01',
          endDate: null,
          contractorName: '',
          details: null,
          countryCode: null,
          postalCode: null,
          address: null,
          tel: null,
          emergencyContact: null,
          billingContact: null,
          maxOrganizations: null,
          storageLimitGb: null,
        },
        refused: { readOnly: 403, member: 403, admin: 403 },
      },
      { method: 'GET', url: contract, refused: { staff: 404 } },
      // The owner belongs to no group of the provider's contract: it does not exist for them.
      { method: 'GET', url: `/contracts/${provider.contractId}`, refused: { owner: 404 } },
      { method: 'PATCH', url: contract, body: { tel: '0' }, refused: OWNERS_ONLY },
      { method: 'DELETE', url: contract, refused: { ...OWNERS_ONLY, owner: 403 } },
      { method: 'POST', url: `${contract}/authentications`, refused: { ...OWNERS_ONLY, owner: 403 } },
      { method: 'DELETE', url: `${contract}/authentications`, refused: { ...OWNERS_ONLY, owner: 403 } },
      { method: 'GET', url: `${contract}/organizations`, refused: { staff: 404 } },
      { method: 'GET', url: `${contract}/proprietors`, refused: OWNERS_ONLY },
      { method: 'DELETE', url: `${contract}/proprietors/owner@demo.test`, refused: OWNERS_ONLY },
      { method: 'POST', url: `${contract}/invitations`, body: { email: 'x@example.test' }, refused: OWNERS_ONLY },
      {
        method: 'POST',
        url: `${contract}/invitations/resend`,
        body: { email: 'x@example.test' },
        refused: OWNERS_ONLY,
      },
      { method: 'GET', url: '/outbox', refused: SUPER_ONLY },
      {
        method: 'POST',
        url: '/accounts/update',
        body: { id: central.id, firstName: 'A', lastName: 'B', displayName: null },
        refused: SUPER_ONLY,
      },
    );
  });

  it('answers every refused role as the catalogue says, and nothing changes', async () => {
    const answers: string[] = [];
    const expected: string[] = [];
    for (const route of routes) {
      for (const [key, status] of Object.entries(route.refused)) {
        const response = await demoCall(t, key as DemoKey, route.method, route.url, route.body);
        answers.push(`${route.method} ${route.url} as ${key}: ${response.statusCode}`);
        expected.push(`${route.method} ${route.url} as ${key}: ${status}`);
      }
    }
    expect(answers).toEqual(expected);
    expect(answers.length).toBeGreaterThan(100);
    const after = await t.database.db.select().from(organizations);
    expect(after.find((row) => row.name === DEMO_GROUPS.central.name)).toMatchObject({
      phone: null,
      storageLimitGb: null,
    });
  });
});
