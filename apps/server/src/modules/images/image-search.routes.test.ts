import type { ImageSearchRequest } from '@pathology/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { factories } from '#test/factories.ts';
import { useTestApp } from '#test/test-app.ts';

describe('POST images/search', () => {
  const t = useTestApp();
  let caseA: string;
  let caseB: string;
  let hidden: string;

  beforeAll(async () => {
    const make = factories(t.database.db);
    const group = await make.organization();
    await make.join(await make.account({ subject: 'member' }), group, 'member');
    await make.account({ subject: 'stranger' });
    caseA = await make.case({ ownerOrganizationId: group });
    caseB = await make.case({ ownerOrganizationId: group });
    hidden = await make.case({ ownerOrganizationId: await make.organization() });
    await make.image(caseA, {
      filename: 'a1.svs',
      displayName: 'Alpha HE',
      organ: 'Breast',
      imageTags: ['HE', 'x40'],
      size: 30,
    });
    await make.image(caseA, { filename: 'a2.ndpi', displayName: 'Alpha IHC', status: 'processing', size: 10 });
    await make.image(caseB, {
      filename: 'b1.svs',
      displayName: '100%_done',
      organ: 'Lung',
      specimenType: 'biopsy',
      size: 20,
    });
    await make.image(caseB, { filename: 'b2.svs', displayName: '1000 done', imageTags: ['HE'], size: 40 });
    await make.image(hidden, { filename: 'h1.svs', displayName: 'Alpha hidden', organ: 'Breast', size: 50 });
  });

  const search = async (sub: string, body: ImageSearchRequest) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/images/search',
      headers: await t.auth(sub),
      payload: body,
    });
    return response;
  };
  const names = async (body: ImageSearchRequest, sub = 'member') =>
    ((await search(sub, body)).json().data as { displayName: string }[]).map((image) => image.displayName);

  it('finds the images of visible cases only, in the order asked, with a total', async () => {
    const response = await search('member', { order: { field: 'size', direction: 'desc' } });
    expect(response.statusCode).toBe(200);
    expect(response.json().total).toBe(4);
    expect(response.json().data.map((image: { size: number }) => image.size)).toEqual([40, 30, 20, 10]);
    expect(response.json().data[0]).toMatchObject({ imageLayerResources: [], privateLabelled: false });
    expect(await search('stranger', {}).then((r) => r.json())).toEqual({ data: [], total: 0 });
  });

  it('pages without overlap, in the order of the whole list', async () => {
    const order = { field: 'displayName', direction: 'asc' } as const;
    const first = await search('member', { order, limit: 3, page: 1 });
    const second = await search('member', { order, limit: 3, page: 2 });
    expect(first.json().total).toBe(4);
    expect(second.json().data).toHaveLength(1);
    const paged = [...first.json().data, ...second.json().data].map((i: { displayName: string }) => i.displayName);
    // The database's collation decides where "100%_done" sorts against "1000 done"; the pages must agree with it.
    expect(paged).toEqual(await names({ order }));
    expect(paged.slice(2)).toEqual(['Alpha HE', 'Alpha IHC']);
  });

  it('ANDs every expression, with case search operators and the * wildcard', async () => {
    expect(
      await names({
        query: [
          { field: 'displayName', operator: 'is', value: 'alpha*' },
          { field: 'status', operator: 'is', value: 'available' },
        ],
      }),
    ).toEqual(['Alpha HE']);
    expect(await names({ query: [{ field: 'imageTags', operator: 'contains-any', value: ['HE'] }] })).toHaveLength(2);
    expect(
      await names({
        query: [
          { field: 'caseId', operator: 'is', value: caseB },
          { field: 'organ', operator: 'is-empty' },
        ],
      }),
    ).toEqual(['1000 done']);
    expect(await names({ query: [{ field: 'specimenType', operator: 'is-like', value: 'BIOP' }] })).toEqual([
      '100%_done',
    ]);
    expect(await names({ query: [{ field: 'status', operator: 'is', value: 'no-such-status' }] })).toEqual([]);
    // A hidden case's images stay hidden even when named directly.
    expect(await names({ query: [{ field: 'caseId', operator: 'is', value: hidden }] })).toEqual([]);
  });

  it('matches % and _ literally and treats hostile values as plain text', async () => {
    expect(await names({ query: [{ field: 'displayName', operator: 'is', value: '100%_*' }] })).toEqual(['100%_done']);
    const hostile = "x' OR '1'='1'; DROP TABLE images; --";
    expect(await names({ query: [{ field: 'displayName', operator: 'is-like', value: hostile }] })).toEqual([]);
    expect(await names({ query: [{ field: 'filename', operator: 'is-not', value: hostile }] })).toHaveLength(4);
    const { rows } = await t.database.pool.query(`SELECT count(*)::int AS n FROM images`);
    expect(rows[0].n).toBe(5);
  });

  it('answers 422 for an operator the field does not take or an id that is not one', async () => {
    const wrong = await search('member', { query: [{ field: 'imageTags', operator: 'is-greater-than', value: 'a' }] });
    expect(wrong.statusCode).toBe(422);
    const notId = await search('member', { query: [{ field: 'caseId', operator: 'is', value: "1' OR 1=1" }] });
    expect(notId.statusCode).toBe(422);
    expect(notId.json().errors).toEqual({ query: 'caseId must be an id' });
  });
});
