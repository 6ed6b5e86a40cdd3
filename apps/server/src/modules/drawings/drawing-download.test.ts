import { DRAWING_MESSAGES } from '@pathology/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { factories } from '#test/factories.ts';
import { useTestApp } from '#test/test-app.ts';
import { zipEntries } from '#test/zip-entries.ts';

/** RFC 7946 features as QuPath imports them as annotations ("File › Import objects"). */
const Position = z.tuple([z.number(), z.number()]);
const GeoJsonGeometry = z.discriminatedUnion('type', [
  z.object({ type: z.literal('Point'), coordinates: Position }),
  z.object({ type: z.literal('LineString'), coordinates: z.array(Position).min(2) }),
  z.object({
    type: z.literal('Polygon'),
    coordinates: z.array(
      z
        .array(Position)
        .min(4)
        .refine((ring) => ring[0]!.join() === ring.at(-1)!.join()),
    ),
  }),
]);
const QuPathFeatureCollection = z.object({
  type: z.literal('FeatureCollection'),
  features: z.array(
    z.object({
      type: z.literal('Feature'),
      id: z.uuid(),
      geometry: GeoJsonGeometry,
      properties: z.object({
        objectType: z.literal('annotation'),
        name: z.string(),
        classification: z.object({ name: z.string(), color: z.tuple([z.number(), z.number(), z.number()]) }),
      }),
    }),
  ),
});

const polygon = [
  [
    [1000, 1000],
    [1400, 1000],
    [1200, 1300],
    [1000, 1000],
  ],
];

describe('POST drawings/download', () => {
  const t = useTestApp();
  let make: ReturnType<typeof factories>;
  let group: string;
  let closedGroup: string;

  beforeAll(async () => {
    make = factories(t.database.db);
    group = await make.organization({ downloadDrawingsEnabled: true });
    closedGroup = await make.organization({ downloadDrawingsEnabled: false });
    const mia = await make.account({ subject: 'mia' });
    await make.join(mia, group, 'member');
    await make.join(mia, closedGroup, 'member');
    await make.join(await make.account({ subject: 'viewer' }), group, 'read_only');
    await make.account({ subject: 'outsider' });
  });

  const post = async (sub: string, path: string, payload: object) =>
    t.app.inject({ method: 'POST', url: `/api/v1${path}`, headers: await t.auth(sub), payload });

  async function imageWithDrawings(organizationId: string, displayName: string) {
    const caseId = await make.case({ ownerOrganizationId: organizationId });
    // 40,000 dpc: 0.25 µm per pixel.
    const imageId = await make.image(caseId, {
      displayName,
      resolutionX: 40_000,
      resolutionY: 40_000,
      resolutionUnit: 'dpc',
    });
    const layerId = await make.imageLayer(imageId);
    const base = `/images/${imageId}/layers/${layerId}/drawings`;
    return { imageId, base };
  }

  it('zips a QuPath GeoJSON and a measurements CSV per image, with the coordinates as drawn', async () => {
    const first = await imageWithDrawings(group, '肝臓 HE');
    const second = await imageWithDrawings(group, 'Second / slide');
    await post('mia', first.base, {
      shapeType: 'polygon',
      geometry: { type: 'Polygon', coordinates: polygon },
      title: '=HYPERLINK("x")',
      style: { lineWidth: 3, lineColor: '#fa5252' },
    });
    await post('mia', first.base, {
      shapeType: 'ellipse',
      geometry: { type: 'Ellipse', center: [500, 500], radii: [100, 50] },
    });
    await post('mia', second.base, {
      shapeType: 'ruler',
      geometry: {
        type: 'LineString',
        coordinates: [
          [0, 0],
          [300, 400],
        ],
      },
      title: '腫瘍径',
    });
    await post('mia', second.base, {
      shapeType: 'point',
      geometry: { type: 'Point', coordinates: [7, 9] },
      visibility: 'private',
    });

    const response = await post('mia', '/drawings/download', { imageIds: [first.imageId, second.imageId] });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="drawings-\d{8}-\d{4}\.zip"/);
    const entries = await zipEntries(response.rawPayload);
    expect([...entries.keys()].sort()).toEqual([
      'Second _ slide/drawings.geojson',
      'Second _ slide/measurements.csv',
      '肝臓 HE/drawings.geojson',
      '肝臓 HE/measurements.csv',
    ]);

    const liver = QuPathFeatureCollection.parse(JSON.parse(entries.get('肝臓 HE/drawings.geojson')!.toString()));
    expect(liver.features[0]!.geometry).toEqual({ type: 'Polygon', coordinates: polygon });
    expect(liver.features[0]!.properties.classification).toEqual({ name: 'Polygon', color: [250, 82, 82] });
    const ellipse = liver.features[1]!.geometry;
    expect(ellipse.type === 'Polygon' && ellipse.coordinates[0]![0]).toEqual([600, 500]);

    const slide = QuPathFeatureCollection.parse(JSON.parse(entries.get('Second _ slide/drawings.geojson')!.toString()));
    expect(slide.features.map((f) => f.geometry.type)).toEqual(['LineString', 'Point']);

    const csv = entries.get('Second _ slide/measurements.csv')!.toString('utf8');
    expect(csv.startsWith('\uFEFFid,layer,shape,title,')).toBe(true);
    // 500 px at 0.25 µm per pixel.
    expect(csv).toMatch(/,ruler,腫瘍径,public,[^,]*,125\.00,,,500\.0,,,/);
    const liverCsv = entries.get('肝臓 HE/measurements.csv')!.toString('utf8');
    // Triangle of base 400 px and height 300 px: 60,000 px², 3,750 µm².
    expect(liverCsv).toContain(`,polygon,"'=HYPERLINK(""x"")",public,`);
    expect(liverCsv).toContain(',3750.00,');
  });

  it("leaves out other people's private drawings, and says so when nothing is left", async () => {
    const image = await imageWithDrawings(group, 'Private only');
    await post('mia', image.base, {
      shapeType: 'point',
      geometry: { type: 'Point', coordinates: [1, 1] },
      visibility: 'private',
    });
    const admin = await make.account({ subject: 'admin' });
    await make.join(admin, group, 'administrator');
    const none = await post('admin', '/drawings/download', { imageIds: [image.imageId] });
    expect(none.statusCode).toBe(404);
    expect(none.json().message).toBe(DRAWING_MESSAGES.downloadNotFound);
  });

  it('needs the download-drawings capability and the group flag on every image', async () => {
    const open = await imageWithDrawings(group, 'Open');
    await post('mia', open.base, { shapeType: 'point', geometry: { type: 'Point', coordinates: [1, 1] } });
    const closed = await imageWithDrawings(closedGroup, 'Closed');
    await post('mia', closed.base, { shapeType: 'point', geometry: { type: 'Point', coordinates: [1, 1] } });

    expect((await post('mia', '/drawings/download', { imageIds: [open.imageId] })).statusCode).toBe(200);
    expect((await post('viewer', '/drawings/download', { imageIds: [open.imageId] })).statusCode).toBe(403);
    expect((await post('outsider', '/drawings/download', { imageIds: [open.imageId] })).statusCode).toBe(404);
    expect((await post('mia', '/drawings/download', { imageIds: [open.imageId, closed.imageId] })).statusCode).toBe(
      403,
    );
    // An image of a case the caller may not see answers as a missing one, even beside an image they may only view.
    const hidden = await imageWithDrawings(await make.organization({ downloadDrawingsEnabled: true }), 'Hidden');
    for (const imageIds of [
      [open.imageId, hidden.imageId],
      [hidden.imageId, open.imageId],
      [open.imageId, crypto.randomUUID()],
    ]) {
      const answer = await post('viewer', '/drawings/download', { imageIds });
      expect(answer.statusCode, imageIds.join()).toBe(404);
      expect(answer.json().message).toBe(DRAWING_MESSAGES.downloadNotFound);
    }
    const unknown = await post('mia', '/drawings/download', { imageIds: [crypto.randomUUID()] });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(DRAWING_MESSAGES.downloadNotFound);
    expect((await post('mia', '/drawings/download', { imageIds: [] })).statusCode).toBe(422);
  });
});
