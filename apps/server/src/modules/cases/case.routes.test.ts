import { Readable } from 'node:stream';
import { MAX_TAG_LENGTH } from '@pathology/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { factories } from '#test/factories.ts';
import { useTestApp } from '#test/test-app.ts';
import { createCaseRepository } from './case.repository.ts';

const MERGE_PATCH = { 'content-type': 'application/merge-patch+json' };

describe('case routes', () => {
  const t = useTestApp();
  let make: ReturnType<typeof factories>;
  let group: string;
  let provider: string;
  let elsewhere: string;

  beforeAll(async () => {
    make = factories(t.database.db);
    group = await make.organization();
    provider = await make.organization();
    elsewhere = await make.organization();
    await make.join(await make.account({ subject: 'member' }), group, 'member');
    await make.join(await make.account({ subject: 'admin' }), group, 'administrator');
    await make.join(await make.account({ subject: 'reader' }), group, 'read_only');
    await make.account({ subject: 'super', isSuperUser: true });
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
      headers: { ...(await t.auth(sub, { superUser: sub === 'super' })), ...headers },
      ...(payload ? { payload } : {}),
    });

  describe('GET cases/{id}', () => {
    it('gives the case with its group, contract, counts and capabilities', async () => {
      const caseId = await make.case({ ownerOrganizationId: group, caseNumber: 'S-24-1', tags: ['HE'] });
      await make.image(caseId, { status: 'available' });
      await make.image(caseId, { status: 'processing' });
      await make.attachment(caseId);
      await make.comment(caseId, null);
      const response = await call('reader', 'GET', `/cases/${caseId}`);
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body).toMatchObject({
        id: caseId,
        caseNumber: 'S-24-1',
        organizationId: group,
        ownerOrganizationId: group,
        organizationName: 'Group',
        contractName: 'Contract',
        tags: ['HE'],
        numberOfImages: 2,
        numberOfAttachments: 1,
        numberOfComments: 1,
        userCapabilities: { canEdit: false, canComment: false },
      });
      expect(body.imageStatusCounts).toMatchObject({ available: 1, processing: 1, uploaded: 0 });
      expect(body).not.toHaveProperty('images');
    });

    it('shows the slide provider to super users only', async () => {
      const caseId = await make.case({ ownerOrganizationId: group, intendedOwnerOrganizationId: provider });
      expect((await call('member', 'GET', `/cases/${caseId}`)).json().intendedOwnerOrganizationId).toBeNull();
      expect((await call('super', 'GET', `/cases/${caseId}`)).json().intendedOwnerOrganizationId).toBe(provider);
    });
  });

  describe('POST cases', () => {
    it('lets a member create a case in their group', async () => {
      const response = await call('member', 'POST', '/cases', {
        caseNumber: '  S-24-100 ',
        ownerOrganizationId: group,
        diagnosis: 'Adenocarcinoma',
        grossFindings: '  ',
        tags: ['HE', 'HE', 'IHC'],
        specimenType: 'biopsy',
      });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({
        caseNumber: 'S-24-100',
        ownerOrganizationId: group,
        diagnosis: 'Adenocarcinoma',
        grossFindings: null,
        tags: ['HE', 'IHC'],
        specimenType: 'biopsy',
        numberOfImages: 0,
        userCapabilities: { canEdit: true },
      });
    });

    it('answers field errors as 422 { message, errors }', async () => {
      const response = await call('member', 'POST', '/cases', {
        caseNumber: ' ',
        tags: ['x'.repeat(MAX_TAG_LENGTH + 1)],
      });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        message: 'Validation failed',
        errors: {
          caseNumber: 'This field is required',
          ownerOrganizationId: 'This field is required',
          'tags.0': 'This field must be at most 200 characters',
        },
      });
    });

    it('refuses, per field, groups where the caller may not create cases', async () => {
      for (const ownerOrganizationId of [elsewhere, '00000000-0000-4000-8000-000000000000']) {
        const response = await call('member', 'POST', '/cases', { caseNumber: 'X', ownerOrganizationId });
        expect(response.statusCode).toBe(422);
        expect(response.json().errors).toEqual({ ownerOrganizationId: 'Choose a group where you may create cases' });
      }
      const reader = await call('reader', 'POST', '/cases', { caseNumber: 'X', ownerOrganizationId: group });
      expect(reader.json().errors).toHaveProperty('ownerOrganizationId');
    });

    it('requires the slide provider from super users, and ignores it from others', async () => {
      const missing = await call('super', 'POST', '/cases', { caseNumber: 'X', ownerOrganizationId: elsewhere });
      expect(missing.statusCode).toBe(422);
      expect(missing.json().errors).toEqual({ intendedOwnerOrganizationId: 'This field is required' });

      const made = await call('super', 'POST', '/cases', {
        caseNumber: 'X',
        ownerOrganizationId: elsewhere,
        intendedOwnerOrganizationId: provider,
      });
      expect(made.statusCode).toBe(201);
      expect(made.json().intendedOwnerOrganizationId).toBe(provider);

      const member = await call('member', 'POST', '/cases', {
        caseNumber: 'Y',
        ownerOrganizationId: group,
        intendedOwnerOrganizationId: provider,
      });
      const stored = await call('super', 'GET', `/cases/${member.json().id}`);
      expect(stored.json().intendedOwnerOrganizationId).toBeNull();
    });
  });

  describe('PATCH cases/{id}', () => {
    it('changes the fields sent as a merge patch and keeps the others', async () => {
      const caseId = await make.case({ ownerOrganizationId: group, diagnosis: 'Old', organ: 'Lung', tags: ['a'] });
      const response = await call(
        'member',
        'PATCH',
        `/cases/${caseId}`,
        { diagnosis: 'New', organ: null, tags: ['b', 'c'], isPublic: true },
        MERGE_PATCH,
      );
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ diagnosis: 'New', organ: null, tags: ['b', 'c'], isPublic: true });
      expect(response.json().caseNumber).toBe('S-1');
    });

    it('says "This field is required" for an empty case number and limits tags to 200 characters', async () => {
      const caseId = await make.case({ ownerOrganizationId: group });
      const response = await call(
        'member',
        'PATCH',
        `/cases/${caseId}`,
        { caseNumber: '', tags: ['ok', 'y'.repeat(201)] },
        MERGE_PATCH,
      );
      expect(response.statusCode).toBe(422);
      expect(response.json().errors).toEqual({
        caseNumber: 'This field is required',
        'tags.1': 'This field must be at most 200 characters',
      });
    });

    it('moves the case when the owner changes, with the rules of a transfer', async () => {
      const caseId = await make.case({ ownerOrganizationId: group });
      const same = await call('member', 'PATCH', `/cases/${caseId}`, { ownerOrganizationId: group }, MERGE_PATCH);
      expect(same.statusCode).toBe(200);
      const member = await call('member', 'PATCH', `/cases/${caseId}`, { ownerOrganizationId: provider }, MERGE_PATCH);
      expect(member.statusCode).toBe(403);
      const admin = await call('admin', 'PATCH', `/cases/${caseId}`, { ownerOrganizationId: provider }, MERGE_PATCH);
      expect(admin.statusCode).toBe(422);
      expect(admin.json().errors).toEqual({ ownerOrganizationId: 'Choose a group where you may create cases' });
      const moved = await call('super', 'PATCH', `/cases/${caseId}`, { ownerOrganizationId: provider }, MERGE_PATCH);
      expect(moved.json()).toMatchObject({ ownerOrganizationId: provider, organizationId: provider });
    });

    it('lets only super users change the slide provider', async () => {
      const caseId = await make.case({ ownerOrganizationId: group, intendedOwnerOrganizationId: provider });
      await call('member', 'PATCH', `/cases/${caseId}`, { intendedOwnerOrganizationId: null }, MERGE_PATCH);
      expect((await call('super', 'GET', `/cases/${caseId}`)).json().intendedOwnerOrganizationId).toBe(provider);
      const cleared = await call('super', 'PATCH', `/cases/${caseId}`, { intendedOwnerOrganizationId: null });
      expect(cleared.json().intendedOwnerOrganizationId).toBeNull();
    });
  });

  describe('DELETE cases/{id}', () => {
    it('deletes an empty case', async () => {
      const caseId = await make.case({ ownerOrganizationId: group });
      expect((await call('admin', 'DELETE', `/cases/${caseId}`)).statusCode).toBe(204);
      expect((await call('admin', 'GET', `/cases/${caseId}`)).statusCode).toBe(404);
    });

    it('answers 409 naming the counts when the case has contents and recursive is not true', async () => {
      const caseId = await make.case({ ownerOrganizationId: group });
      await make.image(caseId);
      await make.image(caseId);
      await make.comment(caseId, null);
      for (const query of ['', '?recursive=false']) {
        const response = await call('admin', 'DELETE', `/cases/${caseId}${query}`);
        expect(response.statusCode).toBe(409);
        expect(response.json().message).toBe(
          'The case has 2 images, 0 attachments and 1 comment. Delete it recursively to remove them as well.',
        );
      }
      expect((await call('admin', 'GET', `/cases/${caseId}`)).statusCode).toBe(200);
      expect((await call('admin', 'DELETE', `/cases/${caseId}?recursive=true`)).statusCode).toBe(204);
      const { rows } = await t.database.pool.query(`SELECT count(*)::int AS n FROM images WHERE case_id = $1`, [
        caseId,
      ]);
      expect(rows[0].n).toBe(0);
    });

    it('removes the files of a case deleted recursively, keeping those a copy in another case shares', async () => {
      const caseId = await make.case({ ownerOrganizationId: group });
      const keys = { original: `test/${caseId}/original`, thumbnail: `test/${caseId}/thumbnail` };
      for (const key of Object.values(keys)) await t.blobs.put(key, Readable.from([Buffer.from(key)]));
      await make.image(caseId, { originalKey: keys.original, thumbnailKey: keys.thumbnail });
      await make.image(await make.case({ ownerOrganizationId: group }), { originalKey: keys.original });
      expect((await call('admin', 'DELETE', `/cases/${caseId}?recursive=true`)).statusCode).toBe(204);
      expect(await t.blobs.exists(keys.thumbnail)).toBe(false);
      expect(await t.blobs.exists(keys.original)).toBe(true);
    });
  });
});

describe('recursive case deletion (repository)', () => {
  const t = useTestApp();

  it('removes the rows, gives back the blob keys nothing references any more, and frees the usage', async () => {
    const make = factories(t.database.db);
    const group = await make.organization();
    const caseId = await make.case({ ownerOrganizationId: group });
    const image = await make.image(caseId, { originalKey: 'o/1', thumbnailKey: 't/1', size: 1000 });
    await make.imageLayer(image, { pyramidKey: 'p/1', pyramidalSize: 300 });
    await make.imageAssociated(image, { blobKey: 'x/1' });
    await make.attachment(caseId, { blobKey: 'a/1', sizeBytes: 20 });
    // A copy of the image in another case shares its original: that blob must stay.
    await make.image(await make.case({ ownerOrganizationId: group }), { originalKey: 'o/1', size: 1000 });
    await t.database.pool.query(
      `UPDATE organizations SET used_original_bytes = 2000, used_pyramidal_bytes = 300, used_attachment_bytes = 20
       WHERE id = $1`,
      [group],
    );

    const result = await createCaseRepository(t.database.db).deleteCase(caseId, { recursive: true });
    expect(result).toEqual({ status: 'deleted', caseNumber: 'S-1', releasedBlobKeys: ['a/1', 'p/1', 't/1', 'x/1'] });
    const { rows } = await t.database.pool.query(
      `SELECT used_original_bytes::int AS o, used_pyramidal_bytes::int AS p, used_attachment_bytes::int AS a
       FROM organizations WHERE id = $1`,
      [group],
    );
    expect(rows[0]).toEqual({ o: 1000, p: 0, a: 0 });
  });
});
