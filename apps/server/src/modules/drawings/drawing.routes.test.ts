import {
  DRAWING_MESSAGES,
  DrawingSchema,
  MESSAGES,
  MAX_DRAWING_VERTICES,
  expandGeometry,
  type DrawingList,
} from '@pathology/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { factories } from '#test/factories.ts';
import { useTestApp } from '#test/test-app.ts';

const MERGE_PATCH = { 'content-type': 'application/merge-patch+json' };

const square = (x: number, y: number, size: number) => [
  [
    [x, y],
    [x + size, y],
    [x + size, y + size],
    [x, y + size],
    [x, y],
  ],
];
const rectangle = { shapeType: 'rectangle', geometry: { type: 'Polygon', coordinates: square(100, 100, 50) } };
const ruler = {
  shapeType: 'ruler',
  geometry: {
    type: 'LineString',
    coordinates: [
      [0, 0],
      [300, 400],
    ],
  },
};

describe('drawing routes', () => {
  const t = useTestApp();
  let make: ReturnType<typeof factories>;
  let group: string;
  let deniedGroup: string;

  beforeAll(async () => {
    make = factories(t.database.db);
    group = await make.organization({ downloadDrawingsEnabled: true });
    deniedGroup = await make.organization({ drawingCreationDenied: true });
    const partnerGroup = await make.organization();
    await make.partner(group, partnerGroup);
    await make.join(await make.account({ subject: 'mia', firstName: 'Mia', lastName: 'Member' }), group, 'member');
    await make.join(await make.account({ subject: 'max' }), group, 'member');
    await make.join(await make.account({ subject: 'viewer' }), group, 'read_only');
    await make.join(await make.account({ subject: 'partner' }), partnerGroup, 'member');
    await make.account({ subject: 'outsider' });
    const deniedMember = await make.account({ subject: 'denied-member' });
    await make.join(deniedMember, deniedGroup, 'member');
  });

  const call = async (sub: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { ...(await t.auth(sub)), ...(method === 'PATCH' ? MERGE_PATCH : {}) },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  async function layerIn(organizationId = group, size?: { width: number; height: number }) {
    const caseId = await make.case({ ownerOrganizationId: organizationId });
    const imageId = await make.image(caseId);
    const layerId = await make.imageLayer(imageId, size);
    return { caseId, imageId, layerId, base: `/images/${imageId}/layers/${layerId}` };
  }

  const listed = async (sub: string, url: string) => {
    const response = await call(sub, 'GET', url);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    return response.json<DrawingList>().data;
  };

  it('stores drawings in image pixels and lists a layer in one response, with the author and defaults', async () => {
    const { base } = await layerIn();
    const created = await call('mia', 'POST', `${base}/drawings`, { ...rectangle, title: 'Tumour' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      ...rectangle,
      title: 'Tumour',
      visibility: 'public',
      style: { lineWidth: 2, lineColor: '#868e96' },
      authorName: 'Mia Member',
      editable: true,
    });
    expect(DrawingSchema.parse(created.json()).createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/);
    await call('max', 'POST', `${base}/drawings`, ruler);

    const data = await listed('viewer', `${base}/drawings`);
    expect(data.map((d) => d.shapeType).sort()).toEqual(['rectangle', 'ruler']);
    // Lists carry lines and rings as encoded polylines; they expand to what was drawn.
    const listedRectangle = data.find((d) => d.shapeType === 'rectangle')!;
    expect(listedRectangle.geometry).toEqual({ type: 'Polygon', encoded: [expect.any(String)] });
    expect(expandGeometry(listedRectangle.geometry)).toEqual(rectangle.geometry);
    expect(data.every((d) => d.editable === false)).toBe(true);
    const one = await call('partner', 'GET', `${base}/drawings/${created.json().id}`);
    expect(one.json().geometry).toEqual(rectangle.geometry);
  });

  it('keeps an id the client chose, once', async () => {
    const { base } = await layerIn();
    const id = crypto.randomUUID();
    const created = await call('mia', 'POST', `${base}/drawings`, { ...rectangle, id });
    expect(created.json().id).toBe(id);
    const again = await call('mia', 'POST', `${base}/drawings`, { ...ruler, id });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(DRAWING_MESSAGES.alreadyExists);
  });

  it('counts visible drawings as the annotations of an image in the case list', async () => {
    const { caseId, base } = await layerIn();
    await call('mia', 'POST', `${base}/drawings`, rectangle);
    await call('mia', 'POST', `${base}/drawings`, { ...ruler, visibility: 'private' });
    const annotations = async (sub: string) => {
      const found = await call(sub, 'POST', '/cases/search', { limit: 500 });
      const row = found.json().data.find((c: { id: string }) => c.id === caseId);
      return row.images[0].annotationCount as number;
    };
    expect(await annotations('mia')).toBe(2);
    expect(await annotations('max')).toBe(1);
  });

  it('keeps a private drawing to its author, in lists, filters and by id', async () => {
    const { base } = await layerIn();
    const mine = (await call('mia', 'POST', `${base}/drawings`, { ...rectangle, visibility: 'private' })).json();
    await call('max', 'POST', `${base}/drawings`, ruler);
    await call('max', 'POST', `${base}/drawings`, { ...ruler, visibility: 'private' });

    expect((await listed('mia', `${base}/drawings`)).length).toBe(2);
    expect((await listed('mia', `${base}/visibility/ALL/drawings`)).length).toBe(2);
    expect((await listed('mia', `${base}/visibility/PRIVATE/drawings`)).map((d) => d.id)).toEqual([mine.id]);
    expect((await listed('mia', `${base}/visibility/PUBLIC/drawings`)).map((d) => d.shapeType)).toEqual(['ruler']);
    expect((await call('mia', 'GET', `${base}/visibility/SECRET/drawings`)).statusCode).toBe(422);

    for (const method of ['GET', 'DELETE'] as const) {
      expect((await call('max', method, `${base}/drawings/${mine.id}`)).statusCode).toBe(404);
    }
    expect((await call('max', 'PATCH', `${base}/drawings/${mine.id}`, { title: 'x' })).statusCode).toBe(404);
  });

  it('lets the author or an editor of the case change a public drawing, and only the author its visibility', async () => {
    const { base } = await layerIn();
    const drawing = (await call('mia', 'POST', `${base}/drawings`, rectangle)).json();
    const url = `${base}/drawings/${drawing.id}`;

    const moved = await call('mia', 'PATCH', url, {
      geometry: { type: 'Polygon', coordinates: square(200, 200, 10) },
      style: { lineColor: '#fa5252' },
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().style).toEqual({ lineWidth: 2, lineColor: '#fa5252' });
    expect(moved.json().geometry.coordinates[0][0]).toEqual([200, 200]);

    expect((await call('max', 'PATCH', url, { title: 'Checked by Max' })).json().title).toBe('Checked by Max');
    expect((await call('max', 'PATCH', url, { visibility: 'private' })).statusCode).toBe(403);
    expect((await call('viewer', 'PATCH', url, { title: 'no' })).statusCode).toBe(403);
    expect((await call('partner', 'DELETE', url)).statusCode).toBe(403);
    expect((await call('outsider', 'DELETE', url)).statusCode).toBe(404);

    const wrongShape = await call('mia', 'PATCH', url, { geometry: ruler.geometry });
    expect(wrongShape.statusCode).toBe(422);
    expect(wrongShape.json().errors).toEqual({ geometry: DRAWING_MESSAGES.wrongGeometry });

    expect((await call('max', 'DELETE', url)).statusCode).toBe(204);
    expect((await call('mia', 'GET', url)).statusCode).toBe(404);
  });

  it('refuses drawing to those who may only look, and to members of a group that denies drawing', async () => {
    const { base } = await layerIn();
    for (const sub of ['viewer', 'partner']) {
      const refused = await call(sub, 'POST', `${base}/drawings`, rectangle);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe('Forbidden');
    }
    expect((await call('outsider', 'POST', `${base}/drawings`, rectangle)).statusCode).toBe(404);
    expect((await call('outsider', 'GET', `${base}/drawings`)).statusCode).toBe(404);

    const denied = await layerIn(deniedGroup);
    const refused = await call('denied-member', 'POST', `${denied.base}/drawings`, rectangle);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(DRAWING_MESSAGES.creationDenied);
    expect(await listed('denied-member', `${denied.base}/drawings`)).toEqual([]);
  });

  it('answers 404 for a layer of another image and for malformed ids', async () => {
    const one = await layerIn();
    const other = await layerIn();
    expect((await call('mia', 'GET', `/images/${one.imageId}/layers/${other.layerId}/drawings`)).statusCode).toBe(404);
    expect(
      (await call('mia', 'POST', `/images/${one.imageId}/layers/${other.layerId}/drawings`, rectangle)).statusCode,
    ).toBe(404);
    expect((await call('mia', 'GET', `/images/nope/layers/${one.layerId}/drawings`)).statusCode).toBe(404);
    expect((await call('mia', 'GET', `${one.base}/drawings/nope`)).statusCode).toBe(404);
  });

  it('validates geometry with a clear 422: closed rings, finite numbers, the shape, the vertex limit', async () => {
    // Wide enough for the longest freehand outline below to lie on the image.
    const { base } = await layerIn(group, { width: MAX_DRAWING_VERTICES, height: 1000 });
    const post = (payload: unknown) => call('mia', 'POST', `${base}/drawings`, payload);
    const messageOf = async (payload: unknown) => {
      const response = await post(payload);
      expect(response.statusCode).toBe(422);
      return JSON.stringify(response.json().errors);
    };
    const open = [
      [
        [0, 0],
        [10, 0],
        [10, 10],
        [0, 10],
      ],
    ];
    expect(await messageOf({ shapeType: 'polygon', geometry: { type: 'Polygon', coordinates: open } })).toContain(
      DRAWING_MESSAGES.ringNotClosed,
    );
    expect(await messageOf({ shapeType: 'polygon', geometry: { type: 'Point', coordinates: [1, 2] } })).toContain(
      DRAWING_MESSAGES.wrongGeometry,
    );
    const threePointRuler = {
      type: 'LineString',
      coordinates: [
        [0, 0],
        [1, 1],
        [2, 2],
      ],
    };
    expect(await messageOf({ shapeType: 'ruler', geometry: threePointRuler })).toContain(DRAWING_MESSAGES.twoPoints);

    // JSON.parse reads 1e999 as Infinity: the only way a non-finite number arrives.
    const infinite = await t.app.inject({
      method: 'POST',
      url: `/api/v1${base}/drawings`,
      headers: { ...(await t.auth('mia')), 'content-type': 'application/json' },
      payload: '{"shapeType":"point","geometry":{"type":"Point","coordinates":[1e999,5]}}',
    });
    expect(infinite.statusCode).toBe(422);
    expect(JSON.stringify(infinite.json().errors)).toContain(DRAWING_MESSAGES.coordinateNotFinite);

    const ringOf = (points: number) => {
      const ring = Array.from({ length: points - 1 }, (_, i) => [i, i % 2]);
      return [...ring, ring[0]!];
    };
    const freehand = (points: number) => ({
      shapeType: 'freehand',
      geometry: { type: 'Polygon', coordinates: [ringOf(points)] },
    });
    expect(await messageOf(freehand(MAX_DRAWING_VERTICES + 1))).toContain(DRAWING_MESSAGES.tooManyVertices);
    expect((await post(freehand(MAX_DRAWING_VERTICES))).statusCode).toBe(201);
  });

  it("refuses geometry further outside the image than the image's size, on create and update (422)", async () => {
    // 1000 × 400 pixels: drawings may reach 1000 pixels (the larger side) past any edge.
    const { base } = await layerIn(group, { width: 1000, height: 400 });
    const refused = async (response: { statusCode: number; json(): { message: string; errors: object } }) => {
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({
        message: MESSAGES.drawingOutsideImage,
        errors: { geometry: MESSAGES.drawingOutsideImage },
      });
    };
    const point = (x: number, y: number) => ({ shapeType: 'point', geometry: { type: 'Point', coordinates: [x, y] } });
    const ellipse = (radii: [number, number], center = [500, 200]) => ({
      shapeType: 'ellipse',
      geometry: { type: 'Ellipse', center, radii },
    });
    const line = (to: [number, number]) => ({
      shapeType: 'line',
      geometry: { type: 'LineString', coordinates: [[10, 10], to] },
    });
    for (const outside of [
      point(1e300, 5),
      point(5, -1e300),
      point(2001, 0),
      point(0, -1001),
      point(-1001, 0),
      point(0, 1401),
      line([1e300, 1e300]),
      { shapeType: 'polygon', geometry: { type: 'Polygon', coordinates: square(0, 0, 3000) } },
      ellipse([1e300, 10]),
      ellipse([10, 1001]),
      ellipse([10, 10], [-5000, 200]),
    ]) {
      await refused(await call('mia', 'POST', `${base}/drawings`, outside));
    }
    for (const edge of [point(2000, -1000), point(-1000, 1400), ellipse([1000, 1000]), line([-999.5, 1399.5])]) {
      expect((await call('mia', 'POST', `${base}/drawings`, edge)).statusCode).toBe(201);
    }

    const created = (await call('mia', 'POST', `${base}/drawings`, ellipse([50, 20]))).json<{ id: string }>();
    const patch = (geometry: object) => call('mia', 'PATCH', `${base}/drawings/${created.id}`, { geometry });
    await refused(await patch({ type: 'Ellipse', center: [500, 200], radii: [1e300, 20] }));
    await refused(await patch({ type: 'Ellipse', center: [1e300, 200], radii: [50, 20] }));
    const kept = await call('mia', 'GET', `${base}/drawings/${created.id}`);
    expect(kept.json().geometry).toEqual({ type: 'Ellipse', center: [500, 200], radii: [50, 20] });
    expect((await patch({ type: 'Ellipse', center: [1900, 1300], radii: [900, 20] })).statusCode).toBe(200);

    // Sight and rights come first: an outsider still gets 404 and a read-only member 403.
    expect((await call('outsider', 'POST', `${base}/drawings`, point(1e300, 0))).statusCode).toBe(404);
    expect((await call('viewer', 'POST', `${base}/drawings`, point(1e300, 0))).statusCode).toBe(403);
  });

  it('answers a long body, read on a worker thread, as a short one: stored alike, refused alike', async () => {
    // 10,000 × 1000 pixels: lines may reach 10,000 pixels past any edge.
    const { base } = await layerIn(group, { width: 10_000, height: 1000 });
    const line = (points: number, y = 0) => ({
      type: 'LineString',
      coordinates: Array.from({ length: points }, (_, index) => [index + 0.04, y + (index % 2)]),
    });
    const post = (payload: object) => call('mia', 'POST', `${base}/drawings`, payload);
    const long = { shapeType: 'freehand', title: '  Long  ', geometry: line(9000) };
    // Past what drawing-bodies.ts leaves to the event loop.
    expect(JSON.stringify(long).length).toBeGreaterThan(64 * 1024);
    const created = await post(long);
    expect(created.statusCode).toBe(201);
    const drawing = DrawingSchema.parse(created.json());
    expect(drawing).toMatchObject({ title: 'Long', visibility: 'public', style: { lineWidth: 2 } });
    expect(drawing.geometry).toEqual({
      type: 'LineString',
      coordinates: line(9000).coordinates.map(([x, y]) => [Math.round(x! * 10) / 10, y]),
    });
    const [listedDrawing] = await listed('mia', `${base}/drawings`);
    expect(expandGeometry(listedDrawing!.geometry)).toEqual(drawing.geometry);

    const sameRefusal = async (make: (points: number) => object) => {
      const short = await post(make(3));
      expect(short.statusCode).toBe(422);
      const refused = await post(make(9000));
      expect({ status: refused.statusCode, body: refused.json<unknown>() }).toEqual({
        status: 422,
        body: short.json<unknown>(),
      });
    };
    await sameRefusal((points) => ({ shapeType: 'freehand', geometry: line(points, 20_000) }));
    await sameRefusal((points) => ({ shapeType: 'freehand', title: 'a\0b', geometry: line(points) }));
    await sameRefusal((points) => ({ shapeType: 'polygon', geometry: line(points) }));
    await sameRefusal((points) => ({ shapeType: 'freehand', title: 'x'.repeat(201), geometry: line(points) }));

    const ellipse = await post({ shapeType: 'ellipse', geometry: { type: 'Ellipse', center: [5, 5], radii: [2, 1] } });
    const patch = (id: string, geometry: object) => call('mia', 'PATCH', `${base}/drawings/${id}`, { geometry });
    const wrongShape = await patch(ellipse.json<{ id: string }>().id, line(9000));
    expect(wrongShape.statusCode).toBe(422);
    expect(wrongShape.json()).toMatchObject({ errors: { geometry: DRAWING_MESSAGES.wrongGeometry } });
    const changed = await patch(drawing.id, line(9000, 500));
    expect(changed.statusCode).toBe(200);
    expect(DrawingSchema.parse(changed.json()).geometry).toMatchObject({
      coordinates: expect.arrayContaining([[1, 501]]),
    });
  });
});
