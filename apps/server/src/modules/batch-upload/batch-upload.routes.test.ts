import { BATCH_UPLOAD_MESSAGES, IMAGE_MESSAGES, MAX_BATCH_PARSE_FILENAMES } from '@pathology/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { factories } from '#test/factories.ts';
import { useTestApp } from '#test/test-app.ts';

describe('POST batch/parse', () => {
  const t = useTestApp();
  let make: ReturnType<typeof factories>;
  let group: string;
  let elsewhere: string;

  beforeAll(async () => {
    make = factories(t.database.db);
    group = await make.organization();
    elsewhere = await make.organization();
    await make.join(await make.account({ subject: 'member' }), group, 'member');
    await make.join(await make.account({ subject: 'reader' }), group, 'read_only');
    await make.account({ subject: 'stranger' });
    await make.account({ subject: 'super', isSuperUser: true });
  });

  const parse = async (sub: string, organizationId: string, filenames: string[]) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/batch/parse',
      headers: await t.auth(sub, { superUser: sub === 'super' }),
      payload: { organizationId, filenames },
    });

  it('finds each file’s case in the group and flags files the case or the batch already has', async () => {
    const first = await make.case({ ownerOrganizationId: group, caseNumber: 'S-2024-001' });
    const second = await make.case({ ownerOrganizationId: group, caseNumber: 'S-2024-002' });
    await make.case({ ownerOrganizationId: elsewhere, caseNumber: 'S-2024-003' });
    await make.case({ ownerOrganizationId: group, caseNumber: 's-2024-004' });
    await make.image(first, { filename: 'S-2024-001--a.svs' });
    // The same name in another case does not count.
    await make.image(second, { filename: 'S-2024-001--b.svs' });

    const response = await parse('member', group, [
      'S-2024-001--a.svs',
      'S-2024-001--b.svs',
      'S-2024-002.svs',
      'S-2024-003.svs',
      'S-2024-004.svs',
      'S-2024-002.svs',
      'S-2024-005--x.ndpi',
      '--nothing.svs',
    ]);
    expect(response.statusCode).toBe(200);
    const missing = { caseId: null, exists: false, fileAlreadyExists: false };
    expect(response.json().data).toEqual([
      {
        filename: 'S-2024-001--a.svs',
        caseNumber: 'S-2024-001',
        caseId: first,
        exists: true,
        fileAlreadyExists: true,
        error: BATCH_UPLOAD_MESSAGES.fileAlreadyExists,
      },
      {
        filename: 'S-2024-001--b.svs',
        caseNumber: 'S-2024-001',
        caseId: first,
        exists: true,
        fileAlreadyExists: false,
      },
      { filename: 'S-2024-002.svs', caseNumber: 'S-2024-002', caseId: second, exists: true, fileAlreadyExists: false },
      { filename: 'S-2024-003.svs', caseNumber: 'S-2024-003', ...missing },
      { filename: 'S-2024-004.svs', caseNumber: 'S-2024-004', ...missing },
      {
        filename: 'S-2024-002.svs',
        caseNumber: 'S-2024-002',
        caseId: second,
        exists: true,
        fileAlreadyExists: true,
        error: 'File already exists',
      },
      { filename: 'S-2024-005--x.ndpi', caseNumber: 'S-2024-005', ...missing },
      { filename: '--nothing.svs', caseNumber: '', ...missing, error: BATCH_UPLOAD_MESSAGES.noCaseNumber },
    ]);
  });

  it('takes the oldest case when several of the group share the case number', async () => {
    const oldest = await make.case({
      ownerOrganizationId: group,
      caseNumber: 'S-DUP',
      createdAt: new Date('2020-01-01'),
    });
    await make.case({ ownerOrganizationId: group, caseNumber: 'S-DUP' });
    const response = await parse('member', group, ['S-DUP.svs']);
    expect(response.json().data[0]).toMatchObject({ caseNumber: 'S-DUP', caseId: oldest, exists: true });
  });

  it('answers an empty batch with no items, and lets a super user parse for any group', async () => {
    expect((await parse('member', group, [])).json()).toEqual({ data: [] });
    expect((await parse('super', elsewhere, ['S-2024-003.svs'])).json().data[0]).toMatchObject({ exists: true });
  });

  it('answers 403 without case creation in the group, 404 for a group the caller cannot see', async () => {
    expect((await parse('reader', group, ['a.svs'])).statusCode).toBe(403);
    expect((await parse('member', elsewhere, ['a.svs'])).statusCode).toBe(404);
    expect((await parse('stranger', group, ['a.svs'])).statusCode).toBe(404);
    expect((await parse('member', '00000000-0000-4000-8000-000000000000', ['a.svs'])).statusCode).toBe(404);
    expect((await parse('member', 'not-an-id', ['a.svs'])).statusCode).toBe(404);
  });

  it('validates each filename, by index, and the size of the batch with 422', async () => {
    const invalid = await parse('member', group, ['ok.svs', 'also-ok.svs', '../up.svs']);
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().errors).toEqual({ 'filenames.2': IMAGE_MESSAGES.invalidFilename });
    const tooMany = Array.from({ length: MAX_BATCH_PARSE_FILENAMES + 1 }, (_, index) => `S-${index}.svs`);
    const response = await parse('member', group, tooMany);
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors)).toEqual(['filenames']);
    const allowed = await parse('member', group, tooMany.slice(1));
    expect(allowed.json().data).toHaveLength(MAX_BATCH_PARSE_FILENAMES);
  });
});
