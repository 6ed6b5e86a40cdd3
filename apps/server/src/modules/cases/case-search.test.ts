import { PRIVATE_LABEL_NAME, type SearchExpression } from '@pathology/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { factories } from '#test/factories.ts';
import { useTestApp } from '#test/test-app.ts';
import type { Caller } from '../../auth/caller.ts';

describe('POST cases/search', () => {
  const t = useTestApp();
  let make: ReturnType<typeof factories>;
  let member: Caller;
  let stranger: Caller;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    make = factories(t.database.db);
    const group = await make.organization({ predictionEnabled: true });
    const other = await make.organization();
    member = await make.account({ subject: 'member' });
    stranger = await make.account({ subject: 'stranger' });
    await make.join(member, group, 'member');
    await make.join(stranger, other, 'member');

    ids.breast = await make.case({
      ownerOrganizationId: group,
      caseNumber: 'S26-00101',
      diagnosis: 'Invasive ductal carcinoma, grade 2',
      grossFindings: 'Firm mass 2.1 cm',
      tags: ['breast', 'urgent', 'review'],
      organ: 'Breast',
      isPublic: true,
    });
    ids.colon = await make.case({
      ownerOrganizationId: group,
      caseNumber: 'S26-00102',
      diagnosis: 'Tubular adenoma with low-grade dysplasia',
      tags: ['colon', 'review'],
    });
    ids.percent = await make.case({
      ownerOrganizationId: group,
      caseNumber: 'B26_100%',
      diagnosis: null,
      tags: [],
      comments: 'Ki-67 index 100% in hot spots',
    });
    ids.hidden = await make.case({ ownerOrganizationId: other, caseNumber: 'S26-00999', tags: ['breast'] });
    const image = await make.image(ids.colon, {
      displayName: 'Colon HE x40',
      organ: 'Colon',
      modelName: 'colon-adenoma',
      imageTags: ['HE', 'x40'],
    });
    await make.image(ids.colon, { displayName: 'Colon pending', status: 'processing', specimenType: 'biopsy' });
    await make.label({ imageId: image }, { visibilityType: 'private', labelName: PRIVATE_LABEL_NAME }, member);
    await make.label({ caseId: ids.breast }, { visibilityType: 'public', labelName: 'Microscope-#8B0000' }, member);
  });

  const search = async (body: object, sub = 'member') =>
    t.app.inject({ method: 'POST', url: '/api/v1/cases/search', headers: await t.auth(sub), payload: body });

  const found = async (query: SearchExpression[], extra: object = {}) => {
    const response = await search({ query, limit: 100, ...extra });
    expect(response.statusCode).toBe(200);
    return response
      .json()
      .data.map((item: { id: string }) => item.id)
      .sort();
  };
  const expected = (...keys: string[]) => keys.map((key) => ids[key]).sort();

  it('returns only the cases the caller may view, with the list shape', async () => {
    const response = await search({});
    const body = response.json();
    expect(body.total).toBe(3);
    const colon = body.data.find((item: { id: string }) => item.id === ids.colon);
    expect(colon).toMatchObject({
      caseNumber: 'S26-00102',
      numberOfImages: 2,
      imageStatusCounts: { available: 1, processing: 1, uploaded: 0 },
      userCapabilities: { canEdit: true, canDelete: false, canRequestPrediction: true },
    });
    expect(colon.privateLabelled).toMatchObject({ labelName: PRIVATE_LABEL_NAME });
    expect(colon.images[0]).toMatchObject({ displayName: 'Colon HE x40', imageTags: ['HE', 'x40'], commentCount: 0 });
    expect((await search({}, 'stranger')).json().data.map((item: { id: string }) => item.id)).toEqual([ids.hidden]);
  });

  it.each([
    ['is', [{ field: 'caseNumber', operator: 'is', value: 'S26-00101' }], ['breast']],
    ['is with a wildcard', [{ field: 'caseNumber', operator: 'is', value: 'S26-*' }], ['breast', 'colon']],
    ['is-not', [{ field: 'caseNumber', operator: 'is-not', value: 'S26-00101' }], ['colon', 'percent']],
    ['is-like', [{ field: 'diagnosis', operator: 'is-like', value: 'ADENOMA' }], ['colon']],
    ['is-like with a wildcard', [{ field: 'diagnosis', operator: 'is-like', value: 'invasive*grade' }], ['breast']],
    ['is-greater-than', [{ field: 'caseNumber', operator: 'is-greater-than', value: 'S26-00101' }], ['colon']],
    ['is-empty', [{ field: 'diagnosis', operator: 'is-empty' }], ['percent']],
    ['is-not-empty', [{ field: 'grossFindings', operator: 'is-not-empty' }], ['breast']],
    ['contains-any', [{ field: 'tags', operator: 'contains-any', value: ['urgent', 'colon'] }], ['breast', 'colon']],
    ['contains-all', [{ field: 'tags', operator: 'contains-all', value: ['breast', 'review'] }], ['breast']],
    ['tags is-empty', [{ field: 'tags', operator: 'is-empty' }], ['percent']],
    ['tags is with a wildcard', [{ field: 'tags', operator: 'is', value: 'rev*' }], ['breast', 'colon']],
    ['image displayName', [{ field: 'displayName', operator: 'is-like', value: 'x40' }], ['colon']],
    ['image modelName', [{ field: 'modelName', operator: 'is', value: 'colon-adenoma' }], ['colon']],
    ['image tags', [{ field: 'imageTags', operator: 'contains-all', value: ['HE', 'x40'] }], ['colon']],
    ['organ on the case or an image', [{ field: 'organ', operator: 'is', value: 'Colon' }], ['colon']],
    ['organ of the case', [{ field: 'organ', operator: 'is', value: 'Breast' }], ['breast']],
    ['specimen type (an enum) is-like', [{ field: 'specimenType', operator: 'is-like', value: 'BIOP' }], ['colon']],
    ['specimen type of no such kind', [{ field: 'specimenType', operator: 'is', value: 'nope' }], []],
    [
      'organ is-not, through images too',
      [{ field: 'organ', operator: 'is-not', value: 'Colon' }],
      ['breast', 'percent'],
    ],
    [
      'two expressions together',
      [
        { field: 'tags', operator: 'contains-any', value: ['review'] },
        { field: 'diagnosis', operator: 'is-like', value: 'carcinoma' },
      ],
      ['breast'],
    ],
  ] as [string, SearchExpression[], string[]][])('%s', async (_name, query, keys) => {
    expect(await found(query)).toEqual(expected(...keys));
  });

  it('escapes % and _ so they match themselves, and only * is a wildcard', async () => {
    expect(await found([{ field: 'caseNumber', operator: 'is', value: 'B26_100%' }])).toEqual(expected('percent'));
    expect(await found([{ field: 'caseNumber', operator: 'is-like', value: '_' }])).toEqual(expected('percent'));
    expect(await found([{ field: 'comments', operator: 'is-like', value: '100%' }])).toEqual(expected('percent'));
    expect(await found([{ field: 'caseNumber', operator: 'is', value: 'S26-0010_' }])).toEqual([]);
  });

  it('treats a value as data, never as SQL', async () => {
    const value = "x'); DROP TABLE cases; --";
    expect(await found([{ field: 'diagnosis', operator: 'is-like', value }])).toEqual([]);
    expect(await found([])).toHaveLength(3);
  });

  it('drops expressions with empty values', async () => {
    const query: SearchExpression[] = [
      { field: 'caseNumber', operator: 'is', value: '' },
      { field: 'tags', operator: 'contains-all', value: ['', ' '] },
      { field: 'diagnosis', operator: 'is-like', value: '   ' },
    ];
    expect(await found(query)).toHaveLength(3);
  });

  it('filters by starred, public label and public cases', async () => {
    expect(await found([], { starred: true })).toEqual(expected('colon'));
    expect(await found([], { publicLabel: 'Microscope-#8B0000' })).toEqual(expected('breast'));
    expect(await found([], { visibility: 'public' })).toEqual(expected('breast'));
    expect(await found([], { visibility: 'private' })).toEqual(expected('colon', 'percent'));
  });

  it('pages and orders with a stable tie-break', async () => {
    const page = async (p: number) =>
      (await search({ order: { field: 'caseNumber', direction: 'asc' }, page: p, limit: 2 })).json();
    const first = await page(1);
    const second = await page(2);
    expect(first.total).toBe(3);
    expect([...first.data, ...second.data].map((item: { caseNumber: string }) => item.caseNumber)).toEqual([
      'B26_100%',
      'S26-00101',
      'S26-00102',
    ]);
  });

  it.each([
    [{ page: 0 }, 'page'],
    [{ limit: 0 }, 'limit'],
    [{ order: { field: 'diagnosis', direction: 'asc' } }, 'order.field'],
    [{ query: [{ field: 'nope', operator: 'is', value: 'x' }] }, 'query.0.field'],
  ])('rejects %j with a field error', async (body, field) => {
    const response = await search(body);
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors)).toContain(field);
  });

  it('rejects an operator the field does not support', async () => {
    const response = await search({ query: [{ field: 'tags', operator: 'is-greater-than', value: 'a' }] });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors.query).toBe('is-greater-than cannot be used with tags');
  });

  it('needs a token', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/v1/cases/search', payload: {} });
    expect(response.statusCode).toBe(401);
  });

  it('suggests tags of visible cases and images only', async () => {
    const tags = (await t.app.inject({ method: 'GET', url: '/api/v1/tags', headers: await t.auth('member') })).json();
    expect(tags.data).toEqual(['review', 'breast', 'colon', 'urgent']);
    const strangerTags = (
      await t.app.inject({ method: 'GET', url: '/api/v1/tags', headers: await t.auth('stranger') })
    ).json();
    expect(strangerTags.data).toEqual(['breast']);
    const imageTags = (
      await t.app.inject({ method: 'GET', url: '/api/v1/image/tags', headers: await t.auth('member') })
    ).json();
    expect(imageTags.data.sort()).toEqual(['HE', 'x40']);
  });

  it('counts exactly up to 1,000 matches and reports more as capped', async () => {
    const big = await make.organization();
    await make.join(await make.account({ subject: 'busy' }), big, 'member');
    await t.database.pool.query(
      `INSERT INTO cases (case_number, owner_organization_id) SELECT 'BULK-' || n, $1 FROM generate_series(1, 2002) n`,
      [big],
    );
    // 2,002 matches: read along the order's index rather than sorted whole.
    const body = (await search({ limit: 3, order: { field: 'caseNumber', direction: 'asc' } }, 'busy')).json();
    expect(body).toMatchObject({ total: 1000, totalCapped: true });
    expect(body.data.map((item: { caseNumber: string }) => item.caseNumber)).toEqual(['BULK-1', 'BULK-10', 'BULK-100']);
    const exact = (await search({ query: [{ field: 'caseNumber', operator: 'is', value: 'BULK-2*' }] }, 'busy')).json();
    expect(exact).toMatchObject({ total: 114, totalCapped: false });
  });
});
