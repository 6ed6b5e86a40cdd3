import { beforeAll, describe, expect, it } from 'vitest';
import { factories } from '#test/factories.ts';
import { useTestApp } from '#test/test-app.ts';

describe('case transfer', () => {
  const t = useTestApp();
  let make: ReturnType<typeof factories>;
  let source: string;
  let destination: string;
  let readOnlyGroup: string;
  let invisible: string;

  beforeAll(async () => {
    make = factories(t.database.db);
    source = await make.organization();
    destination = await make.organization();
    readOnlyGroup = await make.organization();
    invisible = await make.organization();
    const admin = await make.account({ subject: 'admin' });
    await make.join(admin, source, 'administrator');
    await make.join(admin, destination, 'member');
    await make.join(admin, readOnlyGroup, 'read_only');
    const member = await make.account({ subject: 'member' });
    await make.join(member, source, 'member');
    await make.join(member, destination, 'member');
    await make.account({ subject: 'super', isSuperUser: true });
  });

  const call = async (sub: string, method: 'PUT' | 'POST', url: string, payload?: object) =>
    t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: await t.auth(sub, { superUser: sub === 'super' }),
      ...(payload ? { payload } : {}),
    });

  const ownerOf = async (caseId: string) => {
    const { rows } = await t.database.pool.query(`SELECT owner_organization_id AS o FROM cases WHERE id = $1`, [
      caseId,
    ]);
    return rows[0].o as string;
  };

  describe('PUT cases/{id}/transfer/{orgId}', () => {
    it('moves the case and its storage usage to a group where the caller may create cases', async () => {
      const caseId = await make.case({ ownerOrganizationId: source, caseNumber: 'T-1' });
      await make.image(caseId, { size: 500 });
      await t.database.pool.query(`UPDATE organizations SET used_original_bytes = 500 WHERE id = $1`, [source]);
      const response = await call('admin', 'PUT', `/cases/${caseId}/transfer/${destination}`);
      expect(response.statusCode).toBe(200);
      // The web's success text is 'Case "T-1" transferred', built from the answer.
      expect(response.json()).toMatchObject({ caseNumber: 'T-1', ownerOrganizationId: destination });
      expect(response.json().userCapabilities.canTransfer).toBe(false);
      const { rows } = await t.database.pool.query(
        `SELECT id, used_original_bytes::int AS used FROM organizations WHERE id = ANY($1)`,
        [[source, destination]],
      );
      expect(Object.fromEntries(rows.map((row) => [row.id, row.used]))).toEqual({ [source]: 0, [destination]: 500 });
    });

    it('needs case creation in the destination: 403 when only read-only there, 404 when invisible', async () => {
      const caseId = await make.case({ ownerOrganizationId: source });
      expect((await call('admin', 'PUT', `/cases/${caseId}/transfer/${readOnlyGroup}`)).statusCode).toBe(403);
      expect((await call('admin', 'PUT', `/cases/${caseId}/transfer/${invisible}`)).statusCode).toBe(404);
      expect(await ownerOf(caseId)).toBe(source);
    });

    it('changes nothing when the destination is the current owner', async () => {
      const caseId = await make.case({ ownerOrganizationId: source });
      const response = await call('admin', 'PUT', `/cases/${caseId}/transfer/${source}`);
      expect(response.statusCode).toBe(200);
      expect(response.json().ownerOrganizationId).toBe(source);
    });
  });

  describe('PUT cases/transfer/multiple/{orgId}', () => {
    it('moves all the cases in one go', async () => {
      const cases = [
        await make.case({ ownerOrganizationId: source }),
        await make.case({ ownerOrganizationId: source }),
      ];
      const response = await call('admin', 'PUT', `/cases/transfer/multiple/${destination}`, {
        cases,
        organizationId: source,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().total).toBe(2);
      for (const caseId of cases) expect(await ownerOf(caseId)).toBe(destination);
    });

    it.each([
      ['an invisible case', 404, () => make.case({ ownerOrganizationId: invisible })],
      ['a case the caller may not transfer', 403, () => make.case({ ownerOrganizationId: destination })],
      ['a case no longer in the source group', 409, () => make.case({ ownerOrganizationId: readOnlyGroup })],
    ])('moves none when one is %s (%i)', async (_name, status, makeOdd) => {
      const good = await make.case({ ownerOrganizationId: source });
      // A read-only member cannot transfer, so for 409 the odd case must be transferable: use a super user.
      const caller = status === 409 ? 'super' : 'admin';
      const response = await call(caller, 'PUT', `/cases/transfer/multiple/${destination}`, {
        cases: [good, await makeOdd()],
        organizationId: source,
      });
      expect(response.statusCode).toBe(status);
      expect(await ownerOf(good)).toBe(source);
    });

    it('validates the body', async () => {
      const response = await call('admin', 'PUT', `/cases/transfer/multiple/${destination}`, { cases: [] });
      expect(response.statusCode).toBe(422);
      expect(Object.keys(response.json().errors)).toEqual(['cases', 'organizationId']);
    });
  });

  describe('POST organizations/transferable/…', () => {
    it('lists the groups a case may go to: where the caller may create cases, except its owner', async () => {
      const caseId = await make.case({ ownerOrganizationId: source });
      const response = await call('admin', 'POST', `/organizations/transferable/${caseId}`);
      expect(response.statusCode).toBe(200);
      expect(response.json().data.map((group: { id: string }) => group.id)).toEqual([destination]);
    });

    it('lists every group where the caller may create cases for "all"; all groups for super users', async () => {
      const admin = (await call('admin', 'POST', '/organizations/transferable/all')).json();
      expect(admin.data.map((group: { id: string }) => group.id).sort()).toEqual([source, destination].sort());
      const superUser = (await call('super', 'POST', '/organizations/transferable/all')).json();
      expect(superUser.total).toBe(4);
    });

    it('needs transfer on the case', async () => {
      const caseId = await make.case({ ownerOrganizationId: source });
      expect((await call('member', 'POST', `/organizations/transferable/${caseId}`)).statusCode).toBe(403);
      const hidden = await make.case({ ownerOrganizationId: invisible });
      expect((await call('admin', 'POST', `/organizations/transferable/${hidden}`)).statusCode).toBe(404);
    });
  });
});
