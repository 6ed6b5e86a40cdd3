import { beforeAll, describe, expect, it } from 'vitest';
import { demoAuth, type DemoKey } from '#test/demo-callers.ts';
import { useTestApp } from '#test/test-app.ts';
import { seedDemo } from '../../db/seed/demo.ts';

describe('accounts routes', () => {
  const t = useTestApp();
  beforeAll(async () => {
    await seedDemo(t.database.db);
  });

  const get = async (url: string, key: DemoKey) =>
    t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: await demoAuth(t, key) });

  it('GET accounts/me returns the signed-in account', async () => {
    const response = await get('/accounts/me', 'member');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      email: 'member@demo.test',
      firstName: 'Mina',
      lastName: 'Kobayashi',
      affiliation: 'Sakura Central Hospital, Department of Pathology',
      isSuperUser: false,
    });
  });

  it.each([
    ['readOnly', { isMember: false, isAdministrator: false, isProprietor: false, isSuperUser: false }],
    ['member', { isMember: true, isAdministrator: false, isProprietor: false, isSuperUser: false }],
    ['admin', { isMember: true, isAdministrator: true, isProprietor: false, isSuperUser: false }],
    ['owner', { isMember: true, isAdministrator: true, isProprietor: true, isSuperUser: false }],
    ['staff', { isMember: true, isProviderEmployee: true, isAdministrator: false, isSuperUser: false }],
    ['super', { isMember: true, isAdministrator: true, isProprietor: true, isSuperUser: true }],
  ] as const)('GET accounts/roles for %s', async (key, checks) => {
    const response = await get('/accounts/roles', key);
    expect(response.statusCode).toBe(200);
    expect(response.json().checks).toMatchObject(checks);
  });

  it('lists the memberships a role comes from', async () => {
    const { memberships } = (await get('/accounts/roles', 'admin')).json();
    expect(memberships).toHaveLength(3);
    expect(memberships.every((m: { role: string }) => m.role === 'administrator')).toBe(true);
  });

  it.each([
    ['readOnly', ['organizations', 'cases']],
    ['member', ['organizations', 'cases', 'bulkUpload']],
    ['admin', ['organizations', 'cases', 'bulkUpload', 'users']],
    ['owner', ['organizations', 'cases', 'bulkUpload', 'users', 'contracts']],
    ['staff', ['organizations', 'cases', 'bulkUpload', 'contracts']],
    ['super', ['organizations', 'cases', 'bulkUpload', 'users', 'contracts', 'importCsv', 'exportCsv', 'noticePosts']],
  ] as const)('GET accounts/me/menu for %s follows the menu table', async (key, keys) => {
    const { data } = (await get('/accounts/me/menu', key)).json();
    expect(data.map((item: { key: string }) => item.key)).toEqual(keys);
  });

  it.each(['/accounts/me', '/accounts/roles', '/accounts/me/menu'])('%s needs a token', async (url) => {
    expect((await t.app.inject({ method: 'GET', url: `/api/v1${url}` })).statusCode).toBe(401);
  });
});
