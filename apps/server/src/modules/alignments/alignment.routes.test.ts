import { MESSAGES } from '@pathology/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { factories } from '#test/factories.ts';
import { useTestApp } from '#test/test-app.ts';

const POINTS = [
  { image: [100, 200], other: [150, 260] },
  { image: [900, 240], other: [960, 330] },
  { image: [480, 800], other: [500, 880] },
];

describe('image alignment routes', () => {
  const t = useTestApp();
  let make: ReturnType<typeof factories>;
  let group: string;
  let otherGroup: string;

  beforeAll(async () => {
    make = factories(t.database.db);
    group = await make.organization();
    otherGroup = await make.organization();
    const partnerGroup = await make.organization();
    await make.partner(group, partnerGroup);
    await make.join(await make.account({ subject: 'mia', firstName: 'Mia', lastName: 'Member' }), group, 'member');
    await make.join(await make.account({ subject: 'viewer' }), group, 'read_only');
    await make.join(await make.account({ subject: 'partner' }), partnerGroup, 'member');
    await make.join(await make.account({ subject: 'olga' }), otherGroup, 'member');
    await make.account({ subject: 'outsider' });
  });

  const call = async (sub: string, method: 'GET' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: await t.auth(sub), ...(payload ? { payload } : {}) });

  async function imageIn(organizationId: string, name: string) {
    const caseId = await make.case({ ownerOrganizationId: organizationId });
    return make.image(caseId, { displayName: name, width: 2_000, height: 1_500 });
  }

  it('saves a pair once and answers from either side with the points on the right slides', async () => {
    const he = await imageIn(group, 'HE');
    const ki67 = await imageIn(group, 'Ki-67');
    // No alignment yet is the usual case, not an error: 200 with null (404 is for an image out of sight).
    const none = await call('mia', 'GET', `/images/${he}/alignments/${ki67}`);
    expect(none.statusCode).toBe(200);
    expect(none.json()).toBeNull();

    const saved = await call('mia', 'PUT', `/images/${he}/alignments/${ki67}`, { points: POINTS });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      imageId: he,
      otherImageId: ki67,
      points: POINTS,
      updatedByName: 'Mia Member',
    });

    const reverse = (await call('mia', 'GET', `/images/${ki67}/alignments/${he}`)).json();
    expect(reverse.points).toEqual(POINTS.map(({ image, other }) => ({ image: other, other: image })));

    // Saving from the other side replaces the pair's single row.
    const two = POINTS.slice(0, 2).map(({ image, other }) => ({ image: other, other: image }));
    await call('mia', 'PUT', `/images/${ki67}/alignments/${he}`, { points: two });
    expect((await call('mia', 'GET', `/images/${he}/alignments/${ki67}`)).json().points).toEqual(POINTS.slice(0, 2));
    const { rows } = await t.database.pool.query(
      'SELECT count(*)::int AS n FROM image_alignments WHERE $1 IN (image_a_id, image_b_id)',
      [he],
    );
    expect(rows[0].n).toBe(1);

    expect((await call('mia', 'DELETE', `/images/${he}/alignments/${ki67}`)).statusCode).toBe(204);
    const removed = await call('mia', 'GET', `/images/${ki67}/alignments/${he}`);
    expect([removed.statusCode, removed.json()]).toEqual([200, null]);
    expect((await call('mia', 'DELETE', `/images/${he}/alignments/${ki67}`)).statusCode).toBe(404);
  });

  it('lets every role that may view both images read, and only those who may edit both cases save and remove', async () => {
    const he = await imageIn(group, 'HE');
    const her2 = await imageIn(group, 'HER2');
    const url = `/images/${he}/alignments/${her2}`;
    expect((await call('mia', 'PUT', url, { points: POINTS })).statusCode).toBe(200);
    for (const sub of ['viewer', 'partner']) {
      expect((await call(sub, 'GET', `/images/${her2}/alignments/${he}`)).statusCode).toBe(200);
      expect((await call(sub, 'PUT', url, { points: POINTS.slice(0, 2) })).statusCode, `${sub} PUT`).toBe(403);
      expect((await call(sub, 'DELETE', url)).statusCode, `${sub} DELETE`).toBe(403);
    }
    expect((await call('mia', 'GET', url)).json().points).toEqual(POINTS);

    // Editing one of the two cases is not enough: the viewer's own group shares a case with Mia's, read-only.
    const shared = await make.case({ ownerOrganizationId: otherGroup });
    await make.grant({ caseId: shared }, 'read_only', { organization: group });
    const sharedImage = await make.image(shared, { width: 2_000, height: 1_500 });
    const across = await call('mia', 'PUT', `/images/${he}/alignments/${sharedImage}`, { points: POINTS });
    expect(across.statusCode).toBe(403);
    expect((await call('mia', 'DELETE', url)).statusCode).toBe(204);
  });

  it('answers 404 across groups, whichever side the unseen image is on, and for outsiders', async () => {
    const mine = await imageIn(group, 'HE');
    const theirs = await imageIn(otherGroup, 'CD20');
    await call('olga', 'PUT', `/images/${theirs}/alignments/${await imageIn(otherGroup, 'CD3')}`, { points: POINTS });
    for (const [sub, url] of [
      ['mia', `/images/${mine}/alignments/${theirs}`],
      ['mia', `/images/${theirs}/alignments/${mine}`],
      ['olga', `/images/${mine}/alignments/${theirs}`],
      ['olga', `/images/${theirs}/alignments/${mine}`],
      ['outsider', `/images/${mine}/alignments/${await imageIn(group, 'PAS')}`],
      ['mia', `/images/nope/alignments/${mine}`],
    ] as const) {
      expect((await call(sub, 'GET', url)).statusCode, `${sub} GET ${url}`).toBe(404);
      expect((await call(sub, 'PUT', url, { points: POINTS })).statusCode, `${sub} PUT ${url}`).toBe(404);
      expect((await call(sub, 'DELETE', url)).statusCode, `${sub} DELETE ${url}`).toBe(404);
    }
    const { rows } = await t.database.pool.query(
      'SELECT count(*)::int AS n FROM image_alignments WHERE $1 IN (image_a_id, image_b_id)',
      [mine],
    );
    expect(rows[0].n).toBe(0);
  });

  it('refuses one point, four points, non-numbers and an image aligned with itself with 422', async () => {
    const he = await imageIn(group, 'HE');
    const ki67 = await imageIn(group, 'Ki-67');
    const url = `/images/${he}/alignments/${ki67}`;
    expect((await call('mia', 'PUT', url, { points: POINTS.slice(0, 1) })).statusCode).toBe(422);
    expect((await call('mia', 'PUT', url, { points: [...POINTS, POINTS[0]] })).statusCode).toBe(422);
    expect(
      (await call('mia', 'PUT', url, { points: [{ image: ['a', 1], other: [1, 2] }, POINTS[1]] })).statusCode,
    ).toBe(422);
    const self = await call('mia', 'PUT', `/images/${he}/alignments/${he}`, { points: POINTS });
    expect(self.statusCode).toBe(422);
    expect(self.json().errors).toEqual({ otherImageId: 'An image cannot be aligned with itself.' });
  });

  it.each([
    ['identical points', [POINTS[0], POINTS[0]], MESSAGES.alignmentPointsDegenerate],
    [
      'points under a pixel apart on one image',
      [POINTS[0], { image: [100.5, 200.5], other: [900, 900] }],
      MESSAGES.alignmentPointsDegenerate,
    ],
    [
      'three points on one line',
      [POINTS[0], { image: [200, 300], other: [960, 330] }, { image: [300, 400], other: [500, 880] }],
      MESSAGES.alignmentPointsDegenerate,
    ],
    [
      'a point at 1e308',
      [POINTS[0], { image: [1e308, 1e308], other: [960, 330] }],
      MESSAGES.alignmentPointOutsideImage,
    ],
    [
      'a point further past the edge than the image is large',
      [POINTS[0], { image: [100, 200], other: [-2_001, 5] }],
      MESSAGES.alignmentPointOutsideImage,
    ],
  ])('refuses %s with 422 and a message, storing nothing', async (_name, points, message) => {
    const he = await imageIn(group, 'HE');
    const ki67 = await imageIn(group, 'Ki-67');
    const refused = await call('mia', 'PUT', `/images/${he}/alignments/${ki67}`, { points });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({ message, errors: { points: message } });
    const stored = await call('mia', 'GET', `/images/${he}/alignments/${ki67}`);
    expect([stored.statusCode, stored.json()]).toEqual([200, null]);
  });
});
