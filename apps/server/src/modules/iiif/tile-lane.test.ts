import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { memberships } from '../../db/schema/index.ts';
import { factories } from '#test/factories.ts';
import { convertedSlide } from '#test/image-fixtures.ts';
import { useTestApp } from '#test/test-app.ts';
import { slidePath } from '#test/testdata.ts';

/** Headers an answer must carry whichever path gave it. */
const SAME_HEADERS = [
  'content-type',
  'content-length',
  'etag',
  'cache-control',
  'access-control-allow-origin',
  'link',
  'content-security-policy',
  'x-content-type-options',
  'referrer-policy',
  'cross-origin-resource-policy',
  'cross-origin-opener-policy',
];

describe('the lean tile path', () => {
  const t = useTestApp();
  let base: string;
  let tileUrl: string;
  let viewerId: string;
  let groupId: string;

  beforeAll(async () => {
    const make = factories(t.database.db);
    groupId = await make.organization();
    const viewer = await make.account({ subject: 'viewer' });
    viewerId = viewer.accountId;
    await make.join(viewer, groupId, 'read_only');
    const other = await make.organization();
    await make.join(await make.account({ subject: 'other-tenant' }), other, 'proprietor');
    const { layerId } = await convertedSlide(
      t,
      await make.case({ ownerOrganizationId: groupId }),
      slidePath('CMU-1-Small-Region.svs'),
    );
    tileUrl = `/iiif/2/${layerId}/0,0,1024,1024/512,/0/default.jpg`;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  }, 60_000);
  afterEach(() => vi.useRealTimers());

  // One token per user, as a viewer sends: each t.auth call signs a new one, which no cache knows.
  const tokens = new Map<string, { authorization: string }>();
  const fetchAs = async (sub: string, url = tileUrl, headers: Record<string, string> = {}) => {
    if (!tokens.has(sub)) tokens.set(sub, await t.auth(sub));
    return fetch(`${base}${url}`, { headers: { ...tokens.get(sub), ...headers } });
  };
  const laneAnswers = async () => {
    const text = await (await fetch(`${base}/metrics`)).text();
    return Number(/^iiif_tile_lane_answers_total (\d+)$/m.exec(text)?.[1]);
  };

  it("answers a tile whose token and access it knows, with the route's bytes and headers", async () => {
    const before = await laneAnswers();
    // The token's first answer comes from the route (nothing known yet) and fills the caches; the next from the lane.
    const first = await fetchAs('viewer');
    expect(await laneAnswers()).toBe(before);
    const second = await fetchAs('viewer');
    expect(await laneAnswers()).toBe(before + 1);
    expect(second.status).toBe(200);
    // Tokens signed within the same second are equal: this one may only be used once the lane's caches are filled.
    const byRoute = await t.app.inject({ method: 'GET', url: tileUrl, headers: tokens.get('viewer') });
    expect(byRoute.statusCode).toBe(200);
    const body = Buffer.from(await second.arrayBuffer());
    expect(body.equals(byRoute.rawPayload)).toBe(true);
    expect(Buffer.from(await first.arrayBuffer()).equals(body)).toBe(true);
    for (const name of SAME_HEADERS) {
      expect({ name, value: second.headers.get(name) }).toEqual({ name, value: first.headers.get(name) });
      expect({ name, value: second.headers.get(name) }).toEqual({
        name,
        value: String(byRoute.headers[name] ?? null).replace(/^null$/, '') || null,
      });
    }
  });

  it('reads a tile it has not served yet, then answers it from the cache, both with the bytes the route gives', async () => {
    await fetchAs('viewer');
    // The slide is 2220 × 2967: the second column's cells, and the bottom row's cropped one (its rows past the edge).
    for (const url of [tileUrl.replace('/0,0,', '/1024,0,'), tileUrl.replace('/0,0,1024,1024/', '/0,2048,1024,919/')]) {
      const before = await laneAnswers();
      const [read, cached] = [await fetchAs('viewer', url), await fetchAs('viewer', url)];
      expect(await laneAnswers()).toBe(before + 2);
      const byRoute = await t.app.inject({ method: 'GET', url, headers: tokens.get('viewer') });
      expect([read.status, cached.status, byRoute.statusCode]).toEqual([200, 200, 200]);
      expect(Buffer.from(await read.arrayBuffer()).equals(byRoute.rawPayload)).toBe(true);
      expect(Buffer.from(await cached.arrayBuffer()).equals(byRoute.rawPayload)).toBe(true);
      expect(cached.headers.get('content-length')).toBe(String(byRoute.rawPayload.length));
    }
  });

  it('answers a tile it answered before from what it kept of that answer, with the same bytes and headers', async () => {
    const url = tileUrl.replace('/0,0,', '/0,1024,');
    // The route's answer, the lane's from the tile cache (kept then), and the lane's from what it kept.
    const answers = [await fetchAs('viewer', url), await fetchAs('viewer', url)];
    const before = await laneAnswers();
    const kept = await fetchAs('viewer', url);
    expect(await laneAnswers()).toBe(before + 1);
    const body = Buffer.from(await kept.arrayBuffer());
    for (const answer of answers) {
      expect(Buffer.from(await answer.arrayBuffer()).equals(body)).toBe(true);
      for (const name of SAME_HEADERS) {
        expect({ name, value: kept.headers.get(name) }).toEqual({ name, value: answer.headers.get(name) });
      }
    }
    const revalidated = await fetchAs('viewer', url, { 'if-none-match': kept.headers.get('etag')! });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get('etag')).toBe(kept.headers.get('etag'));
    // What was kept answers nobody the access check refuses.
    expect((await fetchAs('other-tenant', url)).status).toBe(404);
  });

  it('answers a revalidation with 304 and the caching headers', async () => {
    const etag = (await fetchAs('viewer')).headers.get('etag')!;
    const before = await laneAnswers();
    const revalidated = await fetchAs('viewer', tileUrl, { 'if-none-match': etag });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    expect(revalidated.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await laneAnswers()).toBe(before + 1);
  });

  it("leaves another tenant's token and bad parameters to the route: 404 and 400", async () => {
    await fetchAs('viewer');
    const before = await laneAnswers();
    expect((await fetchAs('other-tenant')).status).toBe(404);
    expect((await fetchAs('other-tenant')).status).toBe(404);
    expect((await fetchAs('viewer', tileUrl.replace('/512,/', '/0,/'))).status).toBe(400);
    expect((await fetch(`${base}${tileUrl}`)).status).toBe(401);
    expect(await laneAnswers()).toBe(before);
  });

  it('stops answering once a revoked access is no longer remembered: 404 from then on', async () => {
    expect((await fetchAs('viewer')).status).toBe(200);
    await t.database.db
      .delete(memberships)
      .where(and(eq(memberships.accountId, viewerId), eq(memberships.organizationId, groupId)));
    // The "may see" answer is remembered for 30 s on both paths; past that the lane must not serve it.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 31_000 });
    const before = await laneAnswers();
    expect((await fetchAs('viewer')).status).toBe(404);
    expect((await fetchAs('viewer')).status).toBe(404);
    expect(await laneAnswers()).toBe(before);
  });
});
