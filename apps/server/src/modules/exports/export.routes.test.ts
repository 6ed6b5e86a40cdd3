import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { factories } from '#test/factories.ts';
import { useTestApp } from '#test/test-app.ts';

describe('CSV exports', () => {
  const t = useTestApp();
  let caseNumber: string;

  beforeAll(async () => {
    const make = factories(t.database.db);
    const group = await make.organization();
    await make.join(await make.account({ subject: 'mia', firstName: '美亜', lastName: '佐藤' }), group, 'member');
    await make.join(await make.account({ subject: 'ada' }), group, 'administrator');
    await make.join(await make.account({ subject: 'reader' }), group, 'read_only');
    await make.ownContract(await make.account({ subject: 'owner' }), await make.contract());
    await make.join(await make.account({ subject: 'staff' }), await make.organization({ isProvider: true }), 'member');
    await make.account({ subject: 'root', isSuperUser: true });
    caseNumber = `EXP-${Date.now()}`;
    const caseId = await make.case({ ownerOrganizationId: group, caseNumber });
    await make.image(caseId, {
      filename: '胃生検.svs',
      displayName: '=HYPERLINK("http://evil")',
      imageTags: ['HE', '@risk'],
    });
    await make.image(caseId, { filename: 'plain.svs', displayName: '+1-2' });
    await make.attachment(caseId, { filename: '-report.pdf' });
  });

  const get = async (sub: string, name: string, superUser = false) =>
    t.app.inject({ method: 'GET', url: `/api/v1/export/${name}`, headers: await t.auth(sub, { superUser }) });

  const table = (body: string) => parse<Record<string, string>>(body.replace(/^\uFEFF/, ''), { columns: true });

  it('lets only super users export: read_only, member, administrator, proprietor and employee get 403', async () => {
    for (const name of ['images', 'users', 'attachments']) {
      for (const sub of ['reader', 'mia', 'ada', 'owner', 'staff']) {
        expect((await get(sub, name)).statusCode, `${sub} ${name}`).toBe(403);
      }
      expect((await get('root', name, true)).statusCode, name).toBe(200);
    }
  });

  it('writes images as UTF-8 CSV with a BOM, Japanese intact and formulas neutralised', async () => {
    const response = await get('root', 'images', true);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="images.csv"');
    expect(response.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const rows = table(response.body).filter((row) => row.case_number === caseNumber);
    expect(rows.map((row) => row.filename).sort()).toEqual(['plain.svs', '胃生検.svs']);
    const risky = rows.find((row) => row.filename === '胃生検.svs')!;
    expect(risky.display_name).toBe(`'=HYPERLINK("http://evil")`);
    expect(risky.image_tags).toBe('HE,@risk');
    expect(rows.find((row) => row.filename === 'plain.svs')!.display_name).toBe(`'+1-2`);
    expect(risky.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('writes users with their groups and attachments with their cases', async () => {
    const users = table((await get('root', 'users', true)).body);
    expect(users.find((row) => row.first_name === '美亜')).toMatchObject({ last_name: '佐藤', super_user: 'false' });
    expect(users.find((row) => row.first_name === '美亜')!.groups).toMatch(/\(member\)$/);
    const attachments = table((await get('root', 'attachments', true)).body);
    expect(attachments.find((row) => row.case_number === caseNumber)).toMatchObject({ filename: `'-report.pdf` });
  });
});
