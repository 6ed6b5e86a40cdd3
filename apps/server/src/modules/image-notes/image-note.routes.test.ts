import { beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../../auth/caller.ts';
import { factories } from '#test/factories.ts';
import { useTestApp } from '#test/test-app.ts';

const MERGE_PATCH = { 'content-type': 'application/merge-patch+json' };

describe('image note routes', () => {
  const t = useTestApp();
  let make: ReturnType<typeof factories>;
  let group: string;
  let taro: Caller;

  beforeAll(async () => {
    make = factories(t.database.db);
    group = await make.organization();
    const partnerGroup = await make.organization();
    await make.partner(group, partnerGroup);
    await make.join(await make.account({ subject: 'mia', firstName: 'Mia', lastName: 'Member' }), group, 'member');
    taro = await make.account({ subject: 'taro', email: 'tyamada@lab.jp', firstName: 'Taro', lastName: 'Yamada' });
    await make.join(taro, group, 'member');
    await make.join(await make.account({ subject: 'viewer' }), group, 'read_only');
    await make.join(await make.account({ subject: 'partner' }), partnerGroup, 'member');
    await make.account({ subject: 'outsider' });
  });

  const call = async (sub: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { ...(await t.auth(sub)), ...(method === 'PATCH' ? MERGE_PATCH : {}) },
      ...(payload ? { payload } : {}),
    });

  async function image() {
    const caseId = await make.case({ ownerOrganizationId: group, caseNumber: 'S-26-77' });
    return make.image(caseId, { displayName: 'Liver HE' });
  }

  const mentionsOf = async (noteId: string) => {
    const { rows } = await t.database.pool.query(
      `SELECT mentioned_account_id AS "to", label, message, image_id AS "imageId" FROM mentions WHERE image_note_id = $1`,
      [noteId],
    );
    return rows;
  };

  it('adds notes and lists them newest first, with author names and what the reader may do', async () => {
    const imageId = await image();
    const first = await call('mia', 'POST', `/images/${imageId}/notes`, { body: 'Margins clear' });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ body: 'Margins clear', visibility: 'public', authorName: 'Mia Member' });
    expect(first.json().userCapabilities).toEqual({ canUpdate: true, canDelete: true });
    await call('taro', 'POST', `/images/${imageId}/notes`, { body: 'Agreed' });
    const list = (await call('mia', 'GET', `/images/${imageId}/notes`)).json();
    expect(list.data.map((note: { body: string }) => note.body)).toEqual(['Agreed', 'Margins clear']);
    expect(list.data[0].userCapabilities).toEqual({ canUpdate: false, canDelete: true });
  });

  it('keeps private notes to their author and lets only the author change a note', async () => {
    const imageId = await image();
    const secret = (
      await call('mia', 'POST', `/images/${imageId}/notes`, { body: 'Ask Taro', visibility: 'private' })
    ).json();
    expect((await call('taro', 'GET', `/images/${imageId}/notes`)).json().total).toBe(0);
    expect((await call('taro', 'GET', `/images/${imageId}/notes/${secret.id}`)).statusCode).toBe(404);
    expect((await call('taro', 'PATCH', `/images/${imageId}/notes/${secret.id}`, { body: 'x' })).statusCode).toBe(404);
    expect((await call('taro', 'DELETE', `/images/${imageId}/notes/${secret.id}`)).statusCode).toBe(404);

    const open = (await call('mia', 'POST', `/images/${imageId}/notes`, { body: 'Public' })).json();
    expect((await call('taro', 'PATCH', `/images/${imageId}/notes/${open.id}`, { body: 'Mine now' })).statusCode).toBe(
      403,
    );
    const edited = await call('mia', 'PATCH', `/images/${imageId}/notes/${open.id}`, { body: 'Public, edited' });
    expect(edited.json().body).toBe('Public, edited');
    expect((await call('taro', 'DELETE', `/images/${imageId}/notes/${open.id}`)).statusCode).toBe(204);
  });

  it('needs the image-note capability: 403 for viewers and partners, 404 outside the case', async () => {
    const imageId = await image();
    const note = (await call('mia', 'POST', `/images/${imageId}/notes`, { body: 'x' })).json();
    for (const sub of ['viewer', 'partner']) {
      expect((await call(sub, 'GET', `/images/${imageId}/notes`)).statusCode).toBe(403);
      expect((await call(sub, 'POST', `/images/${imageId}/notes`, { body: 'y' })).statusCode).toBe(403);
      expect((await call(sub, 'DELETE', `/images/${imageId}/notes/${note.id}`)).statusCode).toBe(403);
    }
    expect((await call('outsider', 'GET', `/images/${imageId}/notes`)).statusCode).toBe(404);
    expect((await call('outsider', 'GET', `/images/${imageId}/notes/${note.id}`)).statusCode).toBe(404);
    expect((await call('mia', 'GET', `/images/nope/notes`)).statusCode).toBe(404);
    const other = await image();
    expect((await call('mia', 'GET', `/images/${other}/notes/${note.id}`)).statusCode).toBe(404);
  });

  it('validates the text with a clear 422', async () => {
    const imageId = await image();
    const blank = await call('mia', 'POST', `/images/${imageId}/notes`, { body: '   ' });
    expect(blank.statusCode).toBe(422);
    expect(blank.json().errors).toEqual({ body: 'This field is required' });
    const long = await call('mia', 'POST', `/images/${imageId}/notes`, { body: 'x'.repeat(10_001) });
    expect(long.statusCode).toBe(422);
  });

  it('records @mentions of public notes like comments do, never for private ones or the author', async () => {
    const imageId = await image();
    const note = (
      await call('mia', 'POST', `/images/${imageId}/notes`, { body: '@Taro Yamada please check, @mia' })
    ).json();
    expect(await mentionsOf(note.id)).toEqual([
      { to: taro.accountId, label: 'S-26-77 / Liver HE', message: '@Taro Yamada please check, @mia', imageId },
    ]);
    const secret = (
      await call('mia', 'POST', `/images/${imageId}/notes`, { body: '@tyamada', visibility: 'private' })
    ).json();
    expect(await mentionsOf(secret.id)).toEqual([]);
    await call('mia', 'PATCH', `/images/${imageId}/notes/${note.id}`, { body: 'again @tyamada' });
    expect(await mentionsOf(note.id)).toHaveLength(1);
    await call('mia', 'DELETE', `/images/${imageId}/notes/${note.id}`);
    expect(await mentionsOf(note.id)).toEqual([]);
  });
});
