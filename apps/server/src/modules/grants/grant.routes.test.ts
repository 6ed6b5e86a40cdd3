import { beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../../auth/caller.ts';
import { factories } from '#test/factories.ts';
import { useTestApp } from '#test/test-app.ts';

const MERGE_PATCH = { 'content-type': 'application/merge-patch+json' };

describe('case grant routes', () => {
  const t = useTestApp();
  let make: ReturnType<typeof factories>;
  let group: string;
  let partnerLab: string;
  let hidden: string;
  let guest: Caller;

  beforeAll(async () => {
    make = factories(t.database.db);
    group = await make.organization();
    partnerLab = await make.organization();
    hidden = await make.organization();
    const admin = await make.account({ subject: 'admin' });
    await make.join(admin, group, 'administrator');
    await make.join(admin, partnerLab, 'read_only');
    await make.join(await make.account({ subject: 'member' }), group, 'member');
    guest = await make.account({ subject: 'guest', email: 'guest@clinic.example', displayName: 'Dr. Guest' });
  });

  const call = async (
    sub: string,
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
    headers: Record<string, string> = {},
  ) =>
    t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { ...(await t.auth(sub)), ...headers },
      ...(payload ? { payload } : {}),
    });

  it('gives an account found by e-mail a role on the case, which opens the case to it', async () => {
    const caseId = await make.case({ ownerOrganizationId: group });
    expect((await call('guest', 'GET', `/cases/${caseId}`)).statusCode).toBe(404);
    const created = await call('admin', 'POST', `/cases/${caseId}/grants`, {
      grantedRole: 'read_only',
      granteeType: 'account',
      granteeId: 'Guest@Clinic.example',
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      caseId,
      grantedRole: 'read_only',
      granteeType: 'account',
      granteeId: guest.accountId,
      granteeName: 'Dr. Guest',
      granteeEmail: 'guest@clinic.example',
    });
    const seen = await call('guest', 'GET', `/cases/${caseId}`);
    expect(seen.statusCode).toBe(200);
    expect(seen.json().userCapabilities.canEdit).toBe(false);

    const list = (await call('admin', 'GET', `/cases/${caseId}/grants`)).json();
    expect(list.total).toBe(1);

    const grantUrl = `/cases/${caseId}/grants/${created.json().id}`;
    const updated = await call('admin', 'PATCH', grantUrl, { grantedRole: 'member' }, MERGE_PATCH);
    expect(updated.json().grantedRole).toBe('member');
    expect((await call('guest', 'GET', `/cases/${caseId}`)).json().userCapabilities.canEdit).toBe(true);

    expect((await call('admin', 'DELETE', grantUrl)).statusCode).toBe(204);
    expect((await call('guest', 'GET', `/cases/${caseId}`)).statusCode).toBe(404);
  });

  it('grants to a group the caller can see, named in the answer', async () => {
    const caseId = await make.case({ ownerOrganizationId: group });
    const created = await call('admin', 'POST', `/cases/${caseId}/grants`, {
      grantedRole: 'member',
      granteeType: 'organization',
      granteeId: partnerLab,
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ granteeName: 'Group', granteeEmail: null });
    const invisible = await call('admin', 'POST', `/cases/${caseId}/grants`, {
      grantedRole: 'member',
      granteeType: 'organization',
      granteeId: hidden,
    });
    expect(invisible.statusCode).toBe(422);
    expect(invisible.json().errors).toEqual({ granteeId: 'Choose a group' });
  });

  it('answers per field for unknown accounts and malformed grantees', async () => {
    const caseId = await make.case({ ownerOrganizationId: group });
    const unknown = await call('admin', 'POST', `/cases/${caseId}/grants`, {
      grantedRole: 'member',
      granteeType: 'account',
      granteeId: 'nobody@example.test',
    });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors).toEqual({ granteeId: 'No account with this e-mail address or id' });
    const malformed = await call('admin', 'POST', `/cases/${caseId}/grants`, {
      grantedRole: 'member',
      granteeType: 'account',
      granteeId: 'not an address',
    });
    expect(malformed.statusCode).toBe(422);
    expect(malformed.json().errors).toEqual({ granteeId: 'This field must be a valid email address' });
  });

  it('answers 409 to a second grant for the same grantee', async () => {
    const caseId = await make.case({ ownerOrganizationId: group });
    const payload = { grantedRole: 'member', granteeType: 'account', granteeId: guest.accountId };
    expect((await call('admin', 'POST', `/cases/${caseId}/grants`, payload)).statusCode).toBe(201);
    expect((await call('admin', 'POST', `/cases/${caseId}/grants`, payload)).statusCode).toBe(409);
  });

  it('never grants, changes or removes a role above the caller’s own', async () => {
    const caseId = await make.case({ ownerOrganizationId: group });
    const above = await call('admin', 'POST', `/cases/${caseId}/grants`, {
      grantedRole: 'proprietor',
      granteeType: 'account',
      granteeId: guest.accountId,
    });
    expect(above.statusCode).toBe(403);
    await make.grant({ caseId }, 'proprietor', { account: guest.accountId });
    const [grant] = (await call('admin', 'GET', `/cases/${caseId}/grants`)).json().data;
    expect((await call('admin', 'DELETE', `/cases/${caseId}/grants/${grant.id}`)).statusCode).toBe(403);
  });

  it('answers 404 for a grant of another case', async () => {
    const caseId = await make.case({ ownerOrganizationId: group });
    const otherCase = await make.case({ ownerOrganizationId: group });
    await make.grant({ caseId: otherCase }, 'read_only', { account: guest.accountId });
    const [grant] = (await call('admin', 'GET', `/cases/${otherCase}/grants`)).json().data;
    expect((await call('admin', 'DELETE', `/cases/${caseId}/grants/${grant.id}`)).statusCode).toBe(404);
  });
});
