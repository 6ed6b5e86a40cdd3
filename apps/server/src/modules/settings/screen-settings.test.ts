import { SCREEN_SETTING_DEFAULTS } from '@pathology/contract';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '#test/test-app.ts';

describe('screen settings', () => {
  const t = useTestApp();

  const save = async (sub: string, items: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/screen_settings/save',
      headers: await t.auth(sub),
      payload: { items },
    });

  it("gives the spec's defaults before anything is saved", async () => {
    const all = await t.app.inject({ method: 'GET', url: '/api/v1/screen_settings/all', headers: await t.auth('new') });
    expect(all.json()).toEqual({
      data: [
        { settingType: 'case_list', value: SCREEN_SETTING_DEFAULTS.case_list },
        { settingType: 'case_detail', value: { order: { field: 'displayName', direction: 'asc' }, thenBy: null } },
        { settingType: 'drawing_visibility', value: { visibility: 'all' } },
      ],
    });
    expect(SCREEN_SETTING_DEFAULTS.case_list.pageSize).toBe(10);
  });

  it('keeps a second sort priority for the case images, never the same field as the first', async () => {
    const value = { order: { field: 'organ', direction: 'asc' }, thenBy: { field: 'createdAt', direction: 'desc' } };
    expect((await save('bob', [{ settingType: 'case_detail', value }])).statusCode).toBe(200);
    const read = await t.app.inject({
      method: 'GET',
      url: '/api/v1/screen_settings/get/case_detail',
      headers: await t.auth('bob'),
    });
    expect(read.json().value).toEqual(value);
    const repeated = { order: { field: 'organ', direction: 'asc' }, thenBy: { field: 'organ', direction: 'desc' } };
    const refused = await save('bob', [{ settingType: 'case_detail', value: repeated }]);
    expect(refused.statusCode).toBe(422);
    expect(JSON.stringify(refused.json().errors)).toContain('The second priority cannot repeat the first');
  });

  it('saves per user and reads back one key', async () => {
    const value = { ...SCREEN_SETTING_DEFAULTS.case_list, tags: false, pageSize: 50 };
    expect((await save('alice', [{ settingType: 'case_list', value }])).statusCode).toBe(200);
    const mine = await t.app.inject({
      method: 'GET',
      url: '/api/v1/screen_settings/get/case_list',
      headers: await t.auth('alice'),
    });
    expect(mine.json()).toEqual({ settingType: 'case_list', value });
    const theirs = await t.app.inject({
      method: 'GET',
      url: '/api/v1/screen_settings/get/case_list',
      headers: await t.auth('bob'),
    });
    expect(theirs.json().value).toEqual(SCREEN_SETTING_DEFAULTS.case_list);
  });

  it('overwrites on a second save', async () => {
    await save('carol', [{ settingType: 'drawing_visibility', value: { visibility: 'public' } }]);
    await save('carol', [{ settingType: 'drawing_visibility', value: { visibility: 'private' } }]);
    const all = await t.app.inject({
      method: 'GET',
      url: '/api/v1/screen_settings/all',
      headers: await t.auth('carol'),
    });
    expect(all.json().data[2]).toEqual({ settingType: 'drawing_visibility', value: { visibility: 'private' } });
  });

  it('rejects a value of the wrong shape with a message per field, storing nothing', async () => {
    const response = await save('dave', [
      { settingType: 'case_list', value: { ...SCREEN_SETTING_DEFAULTS.case_list, pageSize: 30 } },
    ]);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({
      message: 'Validation failed',
      errors: { 'items.0.value.pageSize': expect.any(String) },
    });
    const { rows } = await t.database.pool.query(
      `SELECT count(*)::int AS n FROM screen_settings s JOIN accounts a ON a.id = s.account_id WHERE a.subject = 'dave'`,
    );
    expect(rows[0].n).toBe(0);
  });

  it('rejects an unknown key', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/v1/screen_settings/get/nope',
      headers: await t.auth('alice'),
    });
    expect(response.statusCode).toBe(422);
  });

  it('needs a signed-in user', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/screen_settings/get/case_list' });
    expect(response.statusCode).toBe(401);
  });
});
