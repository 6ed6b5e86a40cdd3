import { beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../../auth/caller.ts';
import { factories } from '#test/factories.ts';
import { useTestApp } from '#test/test-app.ts';

/**
 * An administrator invites an account that already exists (and belongs to another group). Until the person
 * accepts the link, the invitation must give them nothing of the group, whichever way they ask; afterwards
 * the same calls open up (issue 27, point 2).
 */
describe('an invited membership grants nothing until the invitation is accepted', () => {
  const t = useTestApp({ builtInSignIn: true });
  let make: ReturnType<typeof factories>;
  let invitee: Caller;
  let group: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    make = factories(t.database.db);
    group = await make.organization();
    await make.join(
      await make.account({ subject: 'admin', firstName: 'Aki', lastName: 'Admin' }),
      group,
      'administrator',
    );
    invitee = await make.account({ subject: 'invitee', firstName: 'Yuki', lastName: 'Invitee' });
    await make.join(invitee, await make.organization(), 'member');

    ids.own = await make.case({ ownerOrganizationId: group, caseNumber: 'OWN-1' });
    ids.image = await make.image(ids.own);
    ids.layer = await make.imageLayer(ids.image);
    await make.attachment(ids.own);
    await make.comment(ids.own, null);
    // The other ways a group's membership opens cases: partner of another group, slide provider, grantee.
    const partnered = await make.organization();
    await make.partner(partnered, group);
    ids.partner = await make.case({ ownerOrganizationId: partnered, caseNumber: 'PARTNER-1' });
    ids.provided = await make.case({ intendedOwnerOrganizationId: group, caseNumber: 'PROVIDED-1' });
    ids.granted = await make.case({ caseNumber: 'GRANTED-1' });
    await make.grant({ caseId: ids.granted }, 'member', { organization: group });
    await make.account({ subject: 'root', isSuperUser: true });
  });

  const call = async (sub: string, method: 'GET' | 'POST', url: string, payload?: object, headers = {}) =>
    t.app.inject({
      method,
      url: url.startsWith('/iiif') ? url : `/api/v1${url}`,
      headers: { ...(await t.auth(sub, { superUser: sub === 'root' })), ...headers },
      ...(payload ? { payload } : {}),
    });

  const caseIdsFound = async () =>
    ((await call('invitee', 'POST', '/cases/search', { limit: 100 })).json().data as { id: string }[])
      .map((found) => found.id)
      .sort();
  const imageIdsFound = async () =>
    ((await call('invitee', 'POST', '/images/search', {})).json().data as { id: string }[]).map((found) => found.id);
  const groupIdsListed = async () =>
    ((await call('invitee', 'GET', '/organizations')).json().data as { id: string }[]).map((found) => found.id);
  const transferTargets = async () =>
    ((await call('invitee', 'POST', '/organizations/transferable/all')).json().data as { id: string }[]).map(
      (found) => found.id,
    );
  const myMemberships = async () =>
    ((await call('invitee', 'GET', '/organizations/me/memberships')).json().data as { organizationId: string }[]).map(
      (membership) => membership.organizationId,
    );
  const menuKeys = async () =>
    ((await call('invitee', 'GET', '/accounts/me/menu')).json().data as { key: string }[]).map((item) => item.key);
  const noticeIdsRead = async () =>
    ((await call('invitee', 'GET', '/notices?limit=100')).json().data as { id: string }[]).map((notice) => notice.id);
  const mentionable = async () =>
    ((await call('admin', 'GET', `/cases/${ids.own}/mention-candidates?q=Yuki`)).json().data as unknown[]).length;
  /** Each route of a case's family that answers 404 to a caller who may not see it. */
  const caseRoutes = () => [
    `/cases/${ids.own}`,
    `/cases/${ids.own}/attachments`,
    `/cases/${ids.own}/comments`,
    `/images/${ids.image}`,
    `/images/${ids.image}/layers/${ids.layer}/drawings`,
    `/images/${ids.image}/notes`,
    `/organizations/${group}`,
    `/cases/${ids.partner}`,
    `/cases/${ids.provided}`,
    `/cases/${ids.granted}`,
  ];
  // The layer has no pyramid file: a matching entity tag answers 304 once access is granted, without reading one.
  const tile = (name: string) =>
    call('invitee', 'GET', `/iiif/2/${ids.layer}/${name}`, undefined, {
      'if-none-match': name === 'info.json' ? `"info-${ids.layer}"` : `"${ids.layer}/${name}"`,
    });

  let notice: string;

  it('before the link is opened: no case, image, tile, group, role, notice or mention reaches the invitee', async () => {
    const posted = await call('root', 'POST', '/notices/posts', {
      title: 'For administrators',
      overview: 'Only administrators read this.',
      body: '<p>Administrators only.</p>',
      openAt: new Date(Date.now() - 60_000).toISOString().replace(/\.\d+Z$/, 'Z'),
      closeAt: null,
      permission: 'administrator',
      isDraft: false,
    });
    notice = posted.json().id;

    const invited = await call('admin', 'POST', `/organizations/${group}/invitations`, {
      email: invitee.email,
      firstName: 'Yuki',
      lastName: 'Invitee',
      roles: ['administrator'],
    });
    expect(invited.statusCode, invited.body).toBe(201);

    expect(await caseIdsFound()).toEqual([]);
    expect(await imageIdsFound()).toEqual([]);
    for (const url of caseRoutes()) expect((await call('invitee', 'GET', url)).statusCode, url).toBe(404);
    expect((await tile('info.json')).statusCode).toBe(404);
    expect((await tile('0,0,256,256/256,/0/default.jpg')).statusCode).toBe(404);
    const created = await call('invitee', 'POST', '/cases', { caseNumber: 'X', ownerOrganizationId: group });
    expect(created.json().errors).toHaveProperty('ownerOrganizationId');
    expect(await groupIdsListed()).not.toContain(group);
    expect(await transferTargets()).not.toContain(group);
    expect(await myMemberships()).not.toContain(group);
    const roles = (await call('invitee', 'GET', '/accounts/roles')).json();
    expect(roles.checks).toMatchObject({ isAdministrator: false, canSeeMemberList: false });
    expect(roles.memberships.map((m: { organizationId: string }) => m.organizationId)).not.toContain(group);
    expect(await menuKeys()).not.toContain('users');
    expect(await noticeIdsRead()).not.toContain(notice);
    expect((await call('invitee', 'GET', `/notices/${notice}`)).statusCode).toBe(404);
    expect(await mentionable()).toBe(0);

    // The administrators' Users screen still lists the pending invitation.
    const members = await call('admin', 'GET', `/organizations/${group}/memberships?manageType=invited`);
    expect(members.json().data).toEqual([
      expect.objectContaining({ email: invitee.email, invited: true, roles: ['administrator'] }),
    ]);
  });

  it('after the link is accepted: the same calls open up with the invited role', async () => {
    const outbox = (await call('root', 'GET', '/outbox')).json().data as { to: string; text: string }[];
    const mail = outbox.find((entry) => entry.to === invitee.email)!;
    const link = /http:\/\/app\.test(\/invitations\/[A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
    const accepted = await t.app.inject({
      method: 'POST',
      url: link,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ password: 'yuki-new-password', confirm: 'yuki-new-password' }).toString(),
    });
    expect(accepted.statusCode, accepted.body).toBe(200);

    expect(await caseIdsFound()).toEqual([ids.own, ids.partner, ids.provided, ids.granted].sort());
    expect(await imageIdsFound()).toEqual([ids.image]);
    for (const url of caseRoutes()) expect((await call('invitee', 'GET', url)).statusCode, url).toBe(200);
    expect((await tile('info.json')).statusCode).toBe(304);
    expect((await tile('0,0,256,256/256,/0/default.jpg')).statusCode).toBe(304);
    expect(await groupIdsListed()).toContain(group);
    expect(await transferTargets()).toContain(group);
    expect(await myMemberships()).toContain(group);
    expect((await call('invitee', 'GET', '/accounts/roles')).json().checks).toMatchObject({ isAdministrator: true });
    expect(await menuKeys()).toContain('users');
    expect(await noticeIdsRead()).toContain(notice);
    expect(await mentionable()).toBe(1);
    const members = await call('admin', 'GET', `/organizations/${group}/memberships?manageType=active`);
    expect(members.json().data).toContainEqual(expect.objectContaining({ email: invitee.email, invited: false }));
  });
});
