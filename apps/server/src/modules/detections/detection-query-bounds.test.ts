import { MESSAGES } from '@pathology/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { factories } from '#test/factories.ts';
import { useTestApp } from '#test/test-app.ts';

describe('numbers of detection queries', () => {
  const t = useTestApp();
  let base: string;

  beforeAll(async () => {
    const make = factories(t.database.db);
    const group = await make.organization();
    await make.join(await make.account({ subject: 'viewer' }), group, 'read_only');
    const imageId = await make.image(await make.case({ ownerOrganizationId: group }));
    const layerId = await make.imageLayer(imageId, { width: 4_000, height: 3_000 });
    base = `/api/v1/images/${imageId}/layers/${layerId}/detections`;
  });

  const get = async (query: string, path = 'viewport') =>
    t.app.inject({ method: 'GET', url: `${base}/${path}?${query}`, headers: await t.auth('viewer') });
  const refusal = (field: string) => ({
    message: MESSAGES.positionOutsideImage,
    errors: { [field]: MESSAGES.positionOutsideImage },
  });

  it.each([
    ['far right', 'x=1e308&y=0&width=100&height=100&scale=1'],
    ['far up', 'x=0&y=-1e308&width=100&height=100&scale=0.01'],
    ['wider than any view', 'x=0&y=0&width=1e308&height=100&scale=0.01'],
    ['further past the edge than the image is large', 'x=-4001&y=0&width=100&height=100&scale=1'],
  ])('refuses a viewport %s with 422', async (_name, query) => {
    const response = await get(query);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual(refusal('region'));
  });

  it('answers a viewport reaching past the edges as far as the image is large', async () => {
    expect((await get('x=-4000&y=-4000&width=12000&height=11000&scale=0.01')).statusCode).toBe(200);
    expect((await get('x=3900&y=2900&width=200&height=200&scale=1')).json()).toEqual({ kind: 'objects', data: [] });
  });

  it('refuses a point at 1e308 with 422 and answers one just past the edge', async () => {
    const far = await get('x=1e308&y=5', 'at');
    expect(far.statusCode).toBe(422);
    expect(far.json()).toEqual(refusal('point'));
    expect((await get('x=-3&y=3005', 'at')).json()).toEqual({ data: null });
  });
});
