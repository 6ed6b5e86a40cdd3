import { beforeAll, describe, expect, it } from 'vitest';
import { demoAuth, type DemoKey } from '#test/demo-callers.ts';
import { useTestApp } from '#test/test-app.ts';
import { seedDemo } from '../../db/seed/demo.ts';

describe('GET organizations', () => {
  const t = useTestApp();
  beforeAll(async () => {
    await seedDemo(t.database.db);
  });

  const list = async (key: DemoKey) =>
    (await t.app.inject({ method: 'GET', url: '/api/v1/organizations', headers: await demoAuth(t, key) })).json();

  it('gives a super user every group, sorted by name, with capabilities', async () => {
    const { data, total } = await list('super');
    expect(total).toBe(7);
    const names = data.map((group: { name: string }) => group.name);
    expect(names).toEqual([...names].sort((a: string, b: string) => a.localeCompare(b, 'ja', { numeric: true })));
    expect(
      data.every((group: { userCapabilities: { canCreateCase: boolean } }) => group.userCapabilities.canCreateCase),
    ).toBe(true);
    expect(data.filter((group: { isProvider: boolean }) => group.isProvider)).toHaveLength(1);
  });

  it('gives a member only the groups they may see, and what they may do there', async () => {
    const { data } = await list('member');
    expect(data).toHaveLength(3);
    for (const group of data) {
      expect(group.userCapabilities).toMatchObject({ canCreateCase: true, canInviteUser: false });
      expect(group.contractName).toEqual(expect.any(String));
    }
  });

  it('lets an administrator manage members of their groups', async () => {
    const { data } = await list('admin');
    expect(data.length).toBeGreaterThanOrEqual(3);
    expect(
      data.some((group: { userCapabilities: { canInviteUser: boolean } }) => group.userCapabilities.canInviteUser),
    ).toBe(true);
  });

  it('gives a read-only user no right to create cases', async () => {
    const { data } = await list('readOnly');
    expect(data.length).toBeGreaterThan(0);
    expect(
      data.every((group: { userCapabilities: { canCreateCase: boolean } }) => !group.userCapabilities.canCreateCase),
    ).toBe(true);
  });

  it('needs a token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/organizations' })).statusCode).toBe(401);
  });
});
