import { beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../../auth/caller.ts';
import { factories } from '#test/factories.ts';
import { useTestApp } from '#test/test-app.ts';

const MERGE_PATCH = { 'content-type': 'application/merge-patch+json' };

describe('comment routes', () => {
  const t = useTestApp();
  let make: ReturnType<typeof factories>;
  let group: string;
  let member: Caller;
  let taro: Caller;
  let hanako: Caller;
  let outsider: Caller;

  beforeAll(async () => {
    make = factories(t.database.db);
    group = await make.organization();
    const partnerGroup = await make.organization();
    await make.partner(group, partnerGroup);
    member = await make.account({ subject: 'member', firstName: 'Mia', lastName: 'Member' });
    await make.join(member, group, 'member');
    taro = await make.account({ email: 'tyamada@lab.jp', firstName: 'Taro', lastName: 'Yamada' });
    await make.join(taro, group, 'read_only');
    hanako = await make.account({ displayName: '佐藤 花子' });
    await make.join(hanako, group, 'administrator');
    await make.join(await make.account({ subject: 'partner', displayName: 'Pat' }), partnerGroup, 'member');
    await make.join(await make.account({ subject: 'admin' }), group, 'administrator');
    outsider = await make.account({ displayName: 'Olga' });
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

  const mentionsOf = async (commentId: string) => {
    const { rows } = await t.database.pool.query(
      `SELECT mentioned_account_id AS "to", author_account_id AS "from", label, message, case_id AS "caseId",
        image_id AS "imageId" FROM mentions WHERE comment_id = $1 ORDER BY created_at, mentioned_account_id`,
      [commentId],
    );
    return rows;
  };

  it('suggests members of the case group after "@" and two letters, never the writer, to those who may comment', async () => {
    const caseId = await make.case({ ownerOrganizationId: group });
    const suggest = async (sub: string, q: string) =>
      call(sub, 'GET', `/cases/${caseId}/mention-candidates?q=${encodeURIComponent(q)}`);
    expect((await suggest('member', 'ya')).json().data).toEqual([
      { accountId: taro.accountId, name: 'Taro Yamada', handle: 'Taro Yamada' },
    ]);
    expect((await suggest('member', 'ty')).json().data.map((s: { name: string }) => s.name)).toEqual(['Taro Yamada']);
    expect((await suggest('member', '佐藤')).json().data.map((s: { name: string }) => s.name)).toEqual(['佐藤 花子']);
    expect((await suggest('member', 'mi')).json().data).toEqual([]);
    expect((await suggest('member', 't')).json().data).toEqual([]);
    await make.account({ subject: 'stranger' });
    expect((await suggest('stranger', 'ya')).statusCode).toBe(404);
  });

  it('adds comments and lists them newest last with author names; the case counts them', async () => {
    const caseId = await make.case({ ownerOrganizationId: group });
    const first = await call('member', 'POST', `/cases/${caseId}/comments`, { body: 'First' });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ body: 'First', authorAccountId: member.accountId, authorName: 'Mia Member' });
    expect(first.json().userCapabilities).toEqual({ canUpdate: true, canDelete: true });
    await call('partner', 'POST', `/cases/${caseId}/comments`, { body: 'Second' });

    const list = (await call('member', 'GET', `/cases/${caseId}/comments`)).json();
    expect(list.total).toBe(2);
    expect(list.data.map((c: { body: string }) => c.body)).toEqual(['First', 'Second']);
    expect(list.data[1].authorName).toBe('Pat');
    expect((await call('member', 'GET', `/cases/${caseId}`)).json().numberOfComments).toBe(2);
  });

  it('attaches a comment to an image of the same case only', async () => {
    const caseId = await make.case({ ownerOrganizationId: group });
    const imageId = await make.image(caseId);
    const ok = await call('member', 'POST', `/cases/${caseId}/comments`, { body: 'On the slide', imageId });
    expect(ok.json().imageId).toBe(imageId);
    const foreign = await make.image(await make.case({ ownerOrganizationId: group }));
    const bad = await call('member', 'POST', `/cases/${caseId}/comments`, { body: 'x', imageId: foreign });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toEqual({ imageId: 'Choose an image of this case' });
  });

  it('requires a body', async () => {
    const caseId = await make.case({ ownerOrganizationId: group });
    const response = await call('member', 'POST', `/cases/${caseId}/comments`, { body: '   ' });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({ body: 'This field is required' });
  });

  it('mentions owner-group members named with @, once each, never the author or outsiders', async () => {
    const caseId = await make.case({ ownerOrganizationId: group, caseNumber: 'S-9' });
    const imageId = await make.image(caseId);
    const body = '@Taro Yamada and ＠佐藤 花子さん, see this. cc @tyamada @Mia Member @Olga';
    const created = await call('member', 'POST', `/cases/${caseId}/comments`, { body, imageId });
    const mentions = await mentionsOf(created.json().id);
    // Taro once (named twice), Hanako; not Mia (the author) nor Olga (no member of the group).
    expect(mentions.map((m) => m.to).sort()).toEqual([taro.accountId, hanako.accountId].sort());
    expect(mentions.map((m) => m.to)).not.toContain(outsider.accountId);
    for (const mention of mentions) {
      expect(mention).toMatchObject({ from: member.accountId, label: 'S-9', message: body, caseId, imageId });
    }
  });

  it('mentions newly named members when a comment is edited, and keeps the earlier mentions', async () => {
    const caseId = await make.case({ ownerOrganizationId: group });
    const created = await call('member', 'POST', `/cases/${caseId}/comments`, { body: 'Hi @tyamada' });
    const url = `/cases/${caseId}/comments/${created.json().id}`;
    const edited = await call('member', 'PATCH', url, { body: 'Hi @tyamada and @佐藤 花子' }, MERGE_PATCH);
    expect(edited.statusCode).toBe(200);
    expect(edited.json().body).toBe('Hi @tyamada and @佐藤 花子');
    const mentions = await mentionsOf(created.json().id);
    expect(mentions.map((m) => m.to).sort()).toEqual([taro.accountId, hanako.accountId].sort());
    expect(mentions.find((m) => m.to === taro.accountId).message).toBe('Hi @tyamada');
  });

  it('lets the author who may still comment edit and delete their own comment', async () => {
    const caseId = await make.case({ ownerOrganizationId: group });
    const created = await call('partner', 'POST', `/cases/${caseId}/comments`, { body: 'Mine' });
    const url = `/cases/${caseId}/comments/${created.json().id}`;
    expect((await call('partner', 'PATCH', url, { body: 'Still mine' }, MERGE_PATCH)).statusCode).toBe(200);
    expect((await call('partner', 'DELETE', url)).statusCode).toBe(204);
    expect((await call('partner', 'DELETE', url)).statusCode).toBe(404);
  });

  it("lets editors change and administrators delete someone else's comment", async () => {
    const caseId = await make.case({ ownerOrganizationId: group });
    const created = await call('partner', 'POST', `/cases/${caseId}/comments`, { body: 'Theirs' });
    const url = `/cases/${caseId}/comments/${created.json().id}`;
    const asSeen = (await call('member', 'GET', `/cases/${caseId}/comments`)).json().data[0];
    expect(asSeen.userCapabilities).toEqual({ canUpdate: true, canDelete: true });
    expect((await call('member', 'PATCH', url, { body: 'Fixed typo' }, MERGE_PATCH)).statusCode).toBe(200);
    expect((await call('admin', 'DELETE', url)).statusCode).toBe(204);
  });

  it('answers 404 for a comment of another case', async () => {
    const caseId = await make.case({ ownerOrganizationId: group });
    const otherCase = await make.case({ ownerOrganizationId: group });
    const commentId = await make.comment(otherCase, member);
    expect((await call('admin', 'DELETE', `/cases/${caseId}/comments/${commentId}`)).statusCode).toBe(404);
  });
});
