import { DEFAULT_BITMAP_COLOR_SETTINGS, type BitmapColorSettings } from '@pathology/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { factories } from '#test/factories.ts';
import { useTestApp } from '#test/test-app.ts';

const WARM: BitmapColorSettings = {
  bitmapSaturation: 20,
  bitmapBrightness: -10,
  bitmapContrast: 15,
  bitmapGamma: 1.4,
  bitmapTint: -5,
  bitmapInvert: 0,
};
const NONE = '00000000-0000-0000-0000-000000000000';

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

describe('colour routes', () => {
  const t = useTestApp();
  let make: ReturnType<typeof factories>;
  let group: string;
  let caseId: string;

  beforeAll(async () => {
    make = factories(t.database.db);
    group = await make.organization();
    for (const [sub, role] of [
      ['admin', 'administrator'],
      ['member', 'member'],
      ['reader', 'read_only'],
    ] as const) {
      await make.join(await make.account({ subject: sub }), group, role);
    }
    await make.account({ subject: 'stranger' });
    caseId = await make.case({ ownerOrganizationId: group });
  });

  const call = async (sub: string, method: Method, url: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: await t.auth(sub), ...(payload ? { payload } : {}) });
  const colorsOf = (organizationId: string) => `/organizations/${organizationId}/colors`;
  const colors = () => colorsOf(group);
  const createPreset = async (name: string, settings = WARM) => {
    const response = await call('admin', 'POST', colors(), { name, settings });
    expect(response.statusCode).toBe(201);
    return response.json<{ id: string }>().id;
  };

  describe('presets', () => {
    it('lets an administrator create, read, rename, change and delete a preset', async () => {
      const id = await createPreset('  Warm  ');
      const read = await call('reader', 'GET', `${colors()}/${id}`);
      expect(read.statusCode).toBe(200);
      expect(read.json()).toMatchObject({ id, organizationId: group, name: 'Warm', isDefault: false, settings: WARM });

      const patched = await call('admin', 'PATCH', `${colors()}/${id}`, {
        name: 'Warmer',
        settings: { bitmapGamma: 2 },
      });
      expect(patched.statusCode).toBe(200);
      expect(patched.json()).toMatchObject({ name: 'Warmer', settings: { ...WARM, bitmapGamma: 2 } });

      expect((await call('admin', 'DELETE', `${colors()}/${id}`)).statusCode).toBe(204);
      expect((await call('admin', 'GET', `${colors()}/${id}`)).statusCode).toBe(404);
      expect((await call('admin', 'DELETE', `${colors()}/${id}`)).statusCode).toBe(404);
    });

    it('makes exactly one preset the default, lists it first, and unsets it', async () => {
      const [a, b] = [await createPreset('A'), await createPreset('B')];
      expect((await call('admin', 'PATCH', `${colors()}/${a}/setdefault`)).json()).toMatchObject({ isDefault: true });
      const second = await call('admin', 'PATCH', `${colors()}/${b}/setdefault`);
      expect(second.statusCode).toBe(200);

      const list = (await call('member', 'GET', colors())).json<{ data: { id: string; isDefault: boolean }[] }>();
      expect(list.data.filter((preset) => preset.isDefault).map((preset) => preset.id)).toEqual([b]);
      expect(list.data[0]!.id).toBe(b);

      // Concurrent calls end with one default, whichever came last.
      const results = await Promise.all([a, b].map((id) => call('admin', 'PATCH', `${colors()}/${id}/setdefault`)));
      expect(results.map((result) => result.statusCode)).toEqual([200, 200]);
      const after = (await call('member', 'GET', colors())).json<{ data: { isDefault: boolean }[] }>();
      expect(after.data.filter((preset) => preset.isDefault)).toHaveLength(1);

      for (const id of [a, b]) await call('admin', 'PATCH', `${colors()}/${id}/unsetdefault`);
      const none = (await call('member', 'GET', colors())).json<{ data: { isDefault: boolean }[] }>();
      expect(none.data.some((preset) => preset.isDefault)).toBe(false);
      for (const id of [a, b]) await call('admin', 'DELETE', `${colors()}/${id}`);
    });

    it.each([
      ['a name out of range', { name: '', settings: WARM }],
      ['saturation over 100', { name: 'X', settings: { ...WARM, bitmapSaturation: 101 } }],
      ['gamma under 0.1', { name: 'X', settings: { ...WARM, bitmapGamma: 0 } }],
      ['invert 2', { name: 'X', settings: { ...WARM, bitmapInvert: 2 } }],
      ['a missing setting', { name: 'X', settings: { bitmapSaturation: 0 } }],
    ])('rejects %s (422)', async (_, payload) => {
      const response = await call('admin', 'POST', colors(), payload);
      expect(response.statusCode).toBe(422);
      expect(response.json().errors).toEqual(expect.any(Object));
    });

    it('rejects an invalid change (422)', async () => {
      const id = await createPreset('Valid');
      const response = await call('admin', 'PATCH', `${colors()}/${id}`, { settings: { bitmapContrast: -200 } });
      expect(response.statusCode).toBe(422);
      await call('admin', 'DELETE', `${colors()}/${id}`);
    });

    it('lets members read but not change presets (403)', async () => {
      const id = await createPreset('Shared');
      expect((await call('reader', 'GET', colors())).statusCode).toBe(200);
      for (const sub of ['member', 'reader']) {
        expect((await call(sub, 'POST', colors(), { name: 'Mine', settings: WARM })).statusCode).toBe(403);
        expect((await call(sub, 'PATCH', `${colors()}/${id}`, { name: 'Mine' })).statusCode).toBe(403);
        expect((await call(sub, 'DELETE', `${colors()}/${id}`)).statusCode).toBe(403);
        expect((await call(sub, 'PATCH', `${colors()}/${id}/setdefault`)).statusCode).toBe(403);
        expect((await call(sub, 'PATCH', `${colors()}/${id}/unsetdefault`)).statusCode).toBe(403);
      }
      await call('admin', 'DELETE', `${colors()}/${id}`);
    });

    it('answers 404 to a stranger, for reads and writes alike', async () => {
      const id = await createPreset('Hidden');
      const requests: [Method, string, object?][] = [
        ['GET', colors()],
        ['GET', `${colors()}/${id}`],
        ['POST', colors(), { name: 'X', settings: WARM }],
        ['PATCH', `${colors()}/${id}`, { name: 'X' }],
        ['DELETE', `${colors()}/${id}`],
        ['PATCH', `${colors()}/${id}/setdefault`],
        ['PATCH', `${colors()}/${id}/unsetdefault`],
      ];
      for (const [method, url, payload] of requests) {
        expect((await call('stranger', method, url, payload)).statusCode, `${method} ${url}`).toBe(404);
      }
      await call('admin', 'DELETE', `${colors()}/${id}`);
    });

    it("answers 404 for a preset of another group or a malformed id, even to the group's administrator", async () => {
      const other = await make.organization();
      await make.join(await make.account({ subject: 'other-admin' }), other, 'administrator');
      const foreign = (await call('other-admin', 'POST', colorsOf(other), { name: 'F', settings: WARM })).json<{
        id: string;
      }>().id;
      for (const id of [foreign, NONE, 'not-a-uuid']) {
        expect((await call('admin', 'GET', `${colors()}/${id}`)).statusCode).toBe(404);
        expect((await call('admin', 'PATCH', `${colors()}/${id}/setdefault`)).statusCode).toBe(404);
      }
    });
  });

  describe('my colour', () => {
    const mine = async (sub: string, id = caseId) => call(sub, 'GET', `/accounts/me/color?caseId=${id}`);

    it('falls back from the saved colour to the group default to the neutral settings', async () => {
      const neutral = await mine('member');
      expect(neutral.json()).toEqual({ caseId, source: 'default', presetId: null, ...DEFAULT_BITMAP_COLOR_SETTINGS });

      const presetId = await createPreset('House');
      await call('admin', 'PATCH', `${colors()}/${presetId}/setdefault`);
      expect((await mine('member')).json()).toEqual({ caseId, source: 'preset', presetId, ...WARM });

      const own = { ...WARM, bitmapInvert: 1, bitmapTint: 40 };
      const saved = await call('member', 'POST', '/accounts/me/color', { caseId, ...own });
      expect(saved.statusCode).toBe(200);
      expect(saved.json()).toEqual({ caseId, source: 'user', presetId: null, ...own });
      expect((await mine('member')).json()).toEqual({ caseId, source: 'user', presetId: null, ...own });
      // Per user: the reader still gets the group default.
      expect((await mine('reader')).json()).toMatchObject({ source: 'preset', presetId });

      // Saving again replaces; per case: another case of the group still has the default.
      await call('member', 'POST', '/accounts/me/color', { caseId, ...WARM, bitmapBrightness: 50 });
      expect((await mine('member')).json()).toMatchObject({ source: 'user', bitmapBrightness: 50 });
      const otherCase = await make.case({ ownerOrganizationId: group });
      expect((await mine('member', otherCase)).json()).toMatchObject({ source: 'preset' });
      await call('admin', 'DELETE', `${colors()}/${presetId}`);
    });

    it('answers 404 for a case the caller cannot see', async () => {
      expect((await mine('stranger')).statusCode).toBe(404);
      const saved = await call('stranger', 'POST', '/accounts/me/color', { caseId, ...WARM });
      expect(saved.statusCode).toBe(404);
      expect((await mine('member', NONE)).statusCode).toBe(404);
    });

    it('needs a case id and settings in range (422)', async () => {
      expect((await call('member', 'GET', '/accounts/me/color')).statusCode).toBe(422);
      expect((await call('member', 'GET', '/accounts/me/color?caseId=x')).statusCode).toBe(422);
      const noCase = await call('member', 'POST', '/accounts/me/color', WARM);
      expect(noCase.statusCode).toBe(422);
      expect(noCase.json().errors).toHaveProperty('caseId');
      const tooBright = await call('member', 'POST', '/accounts/me/color', { caseId, ...WARM, bitmapBrightness: 500 });
      expect(tooBright.statusCode).toBe(422);
      expect(tooBright.json().errors).toHaveProperty('bitmapBrightness');
    });
  });
});
