import { beforeAll, describe, expect, it } from 'vitest';
import { factories } from '#test/factories.ts';
import { useTestApp } from '#test/test-app.ts';

/**
 * Every case route, for every kind of caller: 404 when the case is invisible to them, 403 when it
 * is visible but the capability is missing. Refused calls change nothing, so one world serves all.
 */
const ROLES = ['stranger', 'provider', 'reader', 'partner', 'member'] as const;
type Role = (typeof ROLES)[number];

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
interface World {
  caseId: string;
  owner: string;
  other: string;
  commentId: string;
  grantId: string;
}
interface Route {
  name: string;
  method: Method;
  url: (w: World) => string;
  payload?: (w: World) => object;
  /** Who besides administrators and super users may call it. */
  allowed: readonly Role[];
}

const VIEWERS: readonly Role[] = ['provider', 'reader', 'partner', 'member'];

const ROUTES: Route[] = [
  { name: 'get case', method: 'GET', url: (w) => `/cases/${w.caseId}`, allowed: VIEWERS },
  {
    name: 'update case',
    method: 'PATCH',
    url: (w) => `/cases/${w.caseId}`,
    payload: () => ({ diagnosis: 'changed' }),
    allowed: ['member'],
  },
  { name: 'delete case', method: 'DELETE', url: (w) => `/cases/${w.caseId}?recursive=true`, allowed: [] },
  { name: 'transfer case', method: 'PUT', url: (w) => `/cases/${w.caseId}/transfer/${w.other}`, allowed: [] },
  {
    name: 'transfer many',
    method: 'PUT',
    url: (w) => `/cases/transfer/multiple/${w.other}`,
    payload: (w) => ({ cases: [w.caseId], organizationId: w.owner }),
    allowed: [],
  },
  { name: 'transferable groups', method: 'POST', url: (w) => `/organizations/transferable/${w.caseId}`, allowed: [] },
  { name: 'list comments', method: 'GET', url: (w) => `/cases/${w.caseId}/comments`, allowed: VIEWERS },
  {
    name: 'create comment',
    method: 'POST',
    url: (w) => `/cases/${w.caseId}/comments`,
    payload: () => ({ body: 'Hello' }),
    allowed: ['partner', 'member'],
  },
  {
    name: "update someone else's comment",
    method: 'PATCH',
    url: (w) => `/cases/${w.caseId}/comments/${w.commentId}`,
    payload: () => ({ body: 'Changed' }),
    allowed: ['member'],
  },
  {
    name: "delete someone else's comment",
    method: 'DELETE',
    url: (w) => `/cases/${w.caseId}/comments/${w.commentId}`,
    allowed: ['member'],
  },
  { name: 'list grants', method: 'GET', url: (w) => `/cases/${w.caseId}/grants`, allowed: [] },
  {
    name: 'create grant',
    method: 'POST',
    url: (w) => `/cases/${w.caseId}/grants`,
    payload: (w) => ({ grantedRole: 'read_only', granteeType: 'organization', granteeId: w.other }),
    allowed: [],
  },
  {
    name: 'update grant',
    method: 'PATCH',
    url: (w) => `/cases/${w.caseId}/grants/${w.grantId}`,
    payload: () => ({ grantedRole: 'member' }),
    allowed: [],
  },
  { name: 'delete grant', method: 'DELETE', url: (w) => `/cases/${w.caseId}/grants/${w.grantId}`, allowed: [] },
];

describe('case routes reject callers without the capability', () => {
  const t = useTestApp();
  const world = {} as World;

  beforeAll(async () => {
    const make = factories(t.database.db);
    world.owner = await make.organization();
    world.other = await make.organization();
    const partnerGroup = await make.organization();
    const providerGroup = await make.organization();
    await make.partner(world.owner, partnerGroup);
    world.caseId = await make.case({ ownerOrganizationId: world.owner, intendedOwnerOrganizationId: providerGroup });

    const admin = await make.account({ subject: 'admin' });
    await make.join(admin, world.owner, 'administrator');
    for (const [subject, group, role] of [
      ['provider', providerGroup, 'member'],
      ['reader', world.owner, 'read_only'],
      ['partner', partnerGroup, 'member'],
      ['member', world.owner, 'member'],
    ] as const) {
      const account = await make.account({ subject });
      await make.join(account, group, role);
      // Everyone may create cases in `other`, so only the case-side rule can refuse a transfer.
      await make.join(account, world.other, 'member');
    }
    await make.account({ subject: 'stranger' });
    world.commentId = await make.comment(world.caseId, admin);
    const grantee = await make.account();
    await make.grant({ caseId: world.caseId }, 'read_only', { account: grantee.accountId });
    const { rows } = await t.database.pool.query<{ id: string }>(`SELECT id FROM grants WHERE grantee_id = $1`, [
      grantee.accountId,
    ]);
    world.grantId = rows[0]!.id;
  });

  const call = async (role: Role, route: Route) =>
    t.app.inject({
      method: route.method,
      url: `/api/v1${route.url(world)}`,
      headers: await t.auth(role),
      ...(route.payload ? { payload: route.payload(world) } : {}),
    });

  const refusals = ROUTES.flatMap((route) =>
    ROLES.filter((role) => !route.allowed.includes(role)).map((role) => ({
      route,
      role,
      status: role === 'stranger' ? 404 : 403,
    })),
  );

  it.each(refusals.map((r) => [r.route.name, r.role, r.status, r] as const))(
    '%s as %s → %i',
    async (_name, role, status, { route }) => {
      const response = await call(role, route);
      expect(response.statusCode).toBe(status);
      expect(response.json()).toEqual({ message: status === 404 ? 'Not found' : 'Forbidden' });
    },
  );

  it.each(
    ROUTES.filter((route) => route.method === 'GET').flatMap((route) =>
      route.allowed.map((role) => [route.name, role, route] as const),
    ),
  )('%s as %s → 200', async (_name, role, route) => {
    expect((await call(role, route)).statusCode).toBe(200);
  });

  it('answers 404, not 500, to malformed ids', async () => {
    for (const url of ['/cases/nope', '/cases/nope/comments', '/cases/nope/grants']) {
      const response = await t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: await t.auth('admin') });
      expect(response.statusCode).toBe(404);
    }
    const comment = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/cases/${world.caseId}/comments/nope`,
      headers: await t.auth('admin'),
    });
    expect(comment.statusCode).toBe(404);
  });
});
