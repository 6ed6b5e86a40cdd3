import {
  badDetectionFeatureMessage,
  DETECTION_MESSAGES,
  DetectionImportSchema,
  DetectionSummarySchema,
  DetectionViewportSchema,
  DRAWING_MESSAGES,
  type DrawingGeometry,
} from '@pathology/contract';
import { Transform } from 'node:stream';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { factories } from '#test/factories.ts';
import { zipEntries } from '#test/zip-entries.ts';
import {
  nucleiInside,
  nucleusAt,
  nucleusFeature,
  nucleusLayout,
  syntheticDetections,
  syntheticDetectionsText,
  SYNTHETIC_CLASSES,
  type NucleusLayout,
} from '#test/synthetic-detections.ts';
import { useTestApp, type TestContext } from '#test/test-app.ts';
import { createGivenUpHandlers } from '../../jobs/handlers.ts';
import { WORKER_LOST } from '../../jobs/job-queue.ts';
import { geoJsonGeometry } from '../drawings/drawing-export.ts';
import { windsAround } from './area-cells.ts';
import { detectionImportJob } from './detection-import.job.ts';
import { renderDetectionTile } from './detection-tiles.ts';
import { createDetectionRepository, type DetectionRepository } from './detection.repository.ts';
import { detectionImportKey } from './detection-upload.ts';

const SIZE = { width: 40_000, height: 30_000 };
const GEOJSON = { 'content-type': 'application/geo+json' };

const collection = (features: unknown[]) => JSON.stringify({ type: 'FeatureCollection', features });

/** What a worker does with an import's job: the real handler, in this process. */
function importWorker(t: TestContext, maxFeatures = 1_000_000) {
  return (importId: string, retry = { retryCount: 0, retryLimit: 0 }) =>
    detectionImportJob(
      { db: t.database.db, pool: t.database.pool, blobs: t.blobs, log: pino({ level: 'silent' }), maxFeatures },
      { importId, ...retry },
    );
}

/** Uploads a file and, once it is accepted (202), runs its import job; the upload's answer and the import's state. */
async function uploadAndImport(
  t: TestContext,
  work: ReturnType<typeof importWorker>,
  sub: string,
  url: string,
  body: string,
) {
  const response = await t.app.inject({
    method: 'POST',
    url,
    headers: { ...(await t.auth(sub)), ...GEOJSON },
    payload: body,
  });
  if (response.statusCode !== 202) return { response, state: undefined };
  const started = DetectionImportSchema.parse(response.json());
  await work(started.id);
  const state = await t.app.inject({
    method: 'GET',
    url: url.replace(/\/detections(\?.*)?$/, `/detections/imports/${started.id}`),
    headers: await t.auth(sub),
  });
  return { response, state: DetectionImportSchema.parse(state.json()) };
}

describe('detection routes', () => {
  const t = useTestApp();
  let make: ReturnType<typeof factories>;
  let group: string;
  let deniedGroup: string;

  beforeAll(async () => {
    make = factories(t.database.db);
    group = await make.organization({ downloadDrawingsEnabled: true });
    deniedGroup = await make.organization({ drawingCreationDenied: true });
    await make.join(await make.account({ subject: 'mia' }), group, 'member');
    await make.join(await make.account({ subject: 'max' }), group, 'member');
    await make.join(await make.account({ subject: 'viewer' }), group, 'read_only');
    await make.account({ subject: 'outsider' });
    await make.join(await make.account({ subject: 'denied-member' }), deniedGroup, 'member');
  });

  async function layerIn(organizationId = group) {
    const caseId = await make.case({ ownerOrganizationId: organizationId });
    const imageId = await make.image(caseId);
    const layerId = await make.imageLayer(imageId, SIZE);
    return { caseId, imageId, layerId, base: `/api/v1/images/${imageId}/layers/${layerId}` };
  }

  const get = async (sub: string, url: string) => t.app.inject({ method: 'GET', url, headers: await t.auth(sub) });
  const send = async (sub: string, url: string, body: string, type = GEOJSON) =>
    t.app.inject({ method: 'POST', url, headers: { ...(await t.auth(sub)), ...type }, payload: body });
  const work = importWorker(t);
  const importText = async (sub: string, base: string, body: string) =>
    uploadAndImport(t, work, sub, `${base}/detections?name=nuclei.geojson`, body);
  /** Imports a file that must be accepted and stored; the import's final state. */
  const imported = async (sub: string, base: string, body: string) => {
    const { response, state } = await importText(sub, base, body);
    expect(response.statusCode, response.body).toBe(202);
    expect(state).toMatchObject({ status: 'completed', error: null });
    return state!;
  };

  const storedRows = async (layerId: string) =>
    (
      await t.database.db.execute<{ count: number }>(
        sql`SELECT ((SELECT count(*) FROM detections WHERE image_layer_id = ${layerId})
                 + (SELECT count(*) FROM detection_sets WHERE image_layer_id = ${layerId})
                 + (SELECT count(*) FROM detection_cells WHERE image_layer_id = ${layerId})
                 + (SELECT count(*) FROM detection_centres WHERE image_layer_id = ${layerId}))::int AS count`,
      )
    ).rows[0]!.count;

  describe('a generated file of 100,000 nuclei', () => {
    let layer: Awaited<ReturnType<typeof layerIn>>;
    let layout: NucleusLayout;
    let progress: { status: string; bytesRead: number; features: number }[];
    let final: ReturnType<typeof DetectionImportSchema.parse>;

    beforeAll(async () => {
      layer = await layerIn();
      layout = nucleusLayout({ x: 1000, y: 1000, width: 38_000, height: 28_000 }, 100_000);
      const text = await syntheticDetectionsText(layout);
      const response = await send('mia', `${layer.base}/detections?name=nuclei.geojson`, text);
      expect(response.statusCode, response.body).toBe(202);
      const started = DetectionImportSchema.parse(response.json());
      expect(started).toMatchObject({
        status: 'waiting',
        bytesRead: 0,
        bytesTotal: Buffer.byteLength(text),
        features: 0,
      });
      // Watched as the viewer's progress bar does while the job runs.
      const seen: { status: string; bytesRead: number; features: number }[] = [];
      const running = work(started.id);
      let finished = false;
      void running.finally(() => (finished = true));
      while (!finished) {
        const state = (await get('mia', `${layer.base}/detections/imports/${started.id}`)).json();
        seen.push(state);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await running;
      progress = seen.filter((state) => state.status === 'running' && state.features > 0);
      final = DetectionImportSchema.parse(
        (await get('viewer', `${layer.base}/detections/imports/${started.id}`)).json(),
      );
    }, 180_000);

    it('is imported by a job that reports its progress, then its outcome', () => {
      expect(progress.length).toBeGreaterThan(1);
      const last = progress.at(-1)!;
      expect(last.bytesRead).toBeGreaterThan(0);
      expect(last.bytesRead).toBeLessThanOrEqual(final.bytesTotal);
      expect(last.features).toBeLessThanOrEqual(100_000);
      expect(progress.map((state) => state.features)).toEqual(
        [...progress.map((state) => state.features)].sort((a, b) => a - b),
      );
      expect(final).toMatchObject({
        status: 'completed',
        features: 100_000,
        bytesRead: final.bytesTotal,
        setId: expect.any(String),
        error: null,
        retryable: false,
      });
    });

    it('is stored with its classes, colours and counts', async () => {
      const summary = DetectionSummarySchema.parse((await get('viewer', `${layer.base}/detections`)).json());
      expect(summary.total).toBe(100_000);
      expect(summary.classes.map(({ name, color, count }) => ({ name, color, count }))).toEqual([
        { name: 'Tumor', color: '#c80000', count: 25_000 },
        { name: 'Stroma', color: '#96c896', count: 25_000 },
        { name: 'Immune cells', color: '#a05aa0', count: 25_000 },
        { name: 'Necrosis', color: '#323232', count: 25_000 },
      ]);
      expect(summary.sets).toEqual([
        expect.objectContaining({ name: 'nuclei.geojson', count: 100_000, deletable: false }),
      ]);
      expect(summary).toMatchObject({ canImport: false, canExport: false });
      expect((await get('mia', `${layer.base}/detections`)).json()).toMatchObject({ canImport: true, canExport: true });
    });

    it('answers a close viewport with the objects in it and a far one with counts per cell', async () => {
      const close = DetectionViewportSchema.parse(
        (await get('viewer', `${layer.base}/detections/viewport?x=1000&y=1000&width=1000&height=800&scale=1`)).json(),
      );
      expect(close.kind).toBe('objects');
      const expected = [...nucleiInside(layout, { x: 1000, y: 1000, width: 1000, height: 800 }).values()];
      // Objects overlapping the edges come too: at least those whose centres lie inside.
      if (close.kind === 'objects') expect(close.data.length).toBeGreaterThanOrEqual(expected.reduce((a, b) => a + b));

      const whole = DetectionViewportSchema.parse(
        (await get('viewer', `${layer.base}/detections/viewport?x=0&y=0&width=40000&height=30000&scale=0.02`)).json(),
      );
      expect(whole.kind).toBe('density');
      if (whole.kind === 'density') {
        // Cells at least 16 screen pixels wide: 1024 image pixels at 0.02, 40 × 30 of them over the slide.
        expect(whole.cellSize).toBe(1024);
        expect(new Set(whole.cells.map((cell) => `${cell.column},${cell.row}`)).size).toBeLessThanOrEqual(40 * 30);
        expect(whole.cells.reduce((sum, cell) => sum + cell.count, 0)).toBe(100_000);
      }
    });

    it('renders tiles: outlines close up, density further out, hidden classes left out', async () => {
      const tile = async (path: string) => {
        const response = await get('viewer', `${layer.base}/detections/tiles/${path}`);
        expect(response.statusCode, response.body).toBe(200);
        expect(response.headers['content-type']).toBe('image/png');
        const { data, info } = await sharp(response.rawPayload).raw().toBuffer({ resolveWithObject: true });
        let painted = 0;
        for (let at = 3; at < data.length; at += 4) if (data[at]! > 0) painted += 1;
        return { painted, width: info.width, height: info.height };
      };
      // Level 16 is full resolution (2^16 ≥ 40,000); tile (2, 2) covers 1024–1536 px, inside the nuclei.
      const close = await tile('16/2/2');
      expect(close).toMatchObject({ width: 512, height: 512 });
      expect(close.painted).toBeGreaterThan(10_000);
      // Nothing left to paint: a blank tile of the same size, answered without a painter.
      expect(await tile('16/2/2?hide=0,1,2,3')).toEqual({ painted: 0, width: 512, height: 512 });
      // Level 9: the whole slide in one tile of 313 × 235 pixels.
      const whole = await tile('9/0/0');
      expect(whole).toMatchObject({ width: 313, height: 235 });
      expect(whole.painted).toBeGreaterThan(0.7 * 313 * 235 * (38 / 40) * (28 / 30));
      expect((await get('viewer', `${layer.base}/detections/tiles/9/1/0`)).statusCode).toBe(404);
    });

    it('reads at each zoom only what it draws: outlines close, boxes in middle views, grid counts far out', async () => {
      const repository = createDetectionRepository(t.database.db);
      const asked: string[] = [];
      const recording = new Proxy(repository, {
        get: (target, name: keyof DetectionRepository) => {
          const method = Reflect.get(target, name) as (...args: unknown[]) => unknown;
          return (...args: unknown[]) => {
            asked.push(name);
            return method.apply(target, args);
          };
        },
      });
      const colors = new Map([
        [0, '#c80000'],
        [1, '#96c896'],
        [2, '#a05aa0'],
        [3, '#323232'],
      ]);
      const style = { hide: '', fill: 0.35, line: 0.9 };
      const drawn = async (level: number, column: number, row: number) => {
        asked.length = 0;
        const png = await renderDetectionTile(
          recording,
          { id: layer.layerId, ...SIZE, colors },
          { level, column, row },
          style,
        );
        const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
        let painted = 0;
        for (let at = 3; at < data.length; at += 4) if (data[at]! > 0) painted += 1;
        return { reads: [...asked], painted, share: painted / (info.width * info.height) };
      };
      // Level 16 is one image pixel per tile pixel, level 15 half that: outlines, from the geometry.
      expect(await drawn(16, 4, 4)).toMatchObject({ reads: ['estimateIn', 'outlinesIn'] });
      expect(await drawn(15, 2, 2)).toMatchObject({ reads: ['estimateIn', 'outlinesIn'] });
      // Levels 14 and 13 (1/4, 1/8): a mark per object from its box; no geometry is read or parsed.
      for (const level of [14, 13]) {
        const tile = await drawn(level, 1, 1);
        expect(tile.reads).toEqual(['estimateIn', 'boxesIn']);
        // Nuclei are 0.6 of their spacing across: about a quarter of the tile is covered, never all of it.
        expect(tile.share).toBeGreaterThan(0.15);
        expect(tile.share).toBeLessThan(0.9);
      }
      // Further out, the counts per cell without asking how many objects there are.
      expect((await drawn(12, 1, 1)).reads).toEqual(['cellsIn']);
      expect((await drawn(9, 0, 0)).reads).toEqual(['cellsIn']);
    });

    it('estimates what a region holds from the grid, never less than the objects centred in it', async () => {
      const repository = createDetectionRepository(t.database.db);
      for (const region of [
        { x: 1000, y: 1000, width: 512, height: 512 },
        { x: 5000, y: 7000, width: 3000, height: 2000 },
        { x: 0, y: 0, width: 40_000, height: 30_000 },
      ]) {
        const inside = [...nucleiInside(layout, region).values()].reduce((a, b) => a + b);
        const estimate = await repository.estimateIn(layer.layerId, region);
        expect(estimate).toBeGreaterThanOrEqual(inside);
        // Edge cells count whole: at most a cell's width more on each side.
        const grown = { x: region.x - 256, y: region.y - 256, width: region.width + 512, height: region.height + 512 };
        expect(estimate).toBeLessThanOrEqual([...nucleiInside(layout, grown).values()].reduce((a, b) => a + b));
      }
    });

    it('tells the class and measurements of the object under a point', async () => {
      const found = (
        await get('viewer', `${layer.base}/detections/at?x=${1000 + layout.spacing / 2}&y=${1000 + layout.spacing / 2}`)
      ).json();
      expect(found.data).toMatchObject({ classIndex: 0, measurements: { 'Nucleus: Circularity': 0.9 } });
      const between = (await get('viewer', `${layer.base}/detections/at?x=1000.5&y=1000.5`)).json();
      expect(between.data).toBeNull();
    });

    it('counts the detections inside a rectangle per class, with shares', async () => {
      const rect = { x: 5000, y: 7000, width: 3000, height: 2000 };
      const drawn = await send(
        'mia',
        `${layer.base}/drawings`,
        JSON.stringify({
          shapeType: 'rectangle',
          geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [rect.x, rect.y],
                [rect.x + rect.width, rect.y],
                [rect.x + rect.width, rect.y + rect.height],
                [rect.x, rect.y + rect.height],
                [rect.x, rect.y],
              ],
            ],
          },
        }),
        { 'content-type': 'application/json' },
      );
      expect(drawn.statusCode, drawn.body).toBe(201);
      const drawingId = drawn.json<{ id: string }>().id;
      const started = performance.now();
      const counted = await get('viewer', `${layer.base}/drawings/${drawingId}/detections`);
      expect(performance.now() - started).toBeLessThan(2_000);
      const expected = nucleiInside(layout, rect);
      const total = [...expected.values()].reduce((a, b) => a + b);
      expect(counted.json()).toMatchObject({ drawingId, total });
      for (const item of counted.json<{ classes: { name: string; count: number; share: number }[] }>().classes) {
        expect(item.count).toBe(expected.get(item.name));
        expect(item.share).toBeCloseTo(item.count / total, 6);
      }
    });

    it('counts exactly inside a concave polygon and an ellipse, by grid cells and the outline', async () => {
      const shapes = [
        {
          shapeType: 'polygon',
          geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [2000, 2000],
                [30_000, 3000],
                [12_000, 12_000],
                [28_000, 25_000],
                [3000, 24_000],
                [9000, 13_000],
                [2000, 2000],
              ],
            ],
          },
        },
        { shapeType: 'ellipse', geometry: { type: 'Ellipse', center: [20_000, 15_000], radii: [12_000, 9000] } },
      ] as const;
      // The exact test over every nucleus, by the centre of its box as the server takes it.
      const centres = Array.from({ length: layout.count }, (_, index) => {
        const ring = nucleusFeature(layout, index).geometry.coordinates[0]!;
        const [xs, ys] = [ring.map(([x]) => x), ring.map(([, y]) => y)];
        return {
          x: (Math.min(...xs) + Math.max(...xs)) / 2,
          y: (Math.min(...ys) + Math.max(...ys)) / 2,
          name: SYNTHETIC_CLASSES[nucleusAt(layout, index).classIndex]!.name,
        };
      });
      for (const shape of shapes) {
        const drawn = await send('mia', `${layer.base}/drawings`, JSON.stringify(shape), {
          'content-type': 'application/json',
        });
        expect(drawn.statusCode, drawn.body).toBe(201);
        const ring = geoJsonGeometry(shape.geometry as DrawingGeometry).coordinates[0] as [number, number][];
        const expected = new Map(SYNTHETIC_CLASSES.map((item) => [item.name, 0]));
        for (const centre of centres) {
          if (windsAround(ring, centre.x, centre.y)) expected.set(centre.name, expected.get(centre.name)! + 1);
        }
        const counted = await get('viewer', `${layer.base}/drawings/${drawn.json<{ id: string }>().id}/detections`);
        const body = counted.json<{ total: number; classes: { name: string; count: number }[] }>();
        expect(body.total).toBe([...expected.values()].reduce((a, b) => a + b));
        expect(body.total).toBeGreaterThan(20_000);
        expect(new Map(body.classes.map((item) => [item.name, item.count]))).toEqual(expected);
      }
    });

    it('exports them as a QuPath GeoJSON FeatureCollection', { timeout: 120_000 }, async () => {
      const response = await get('mia', `${layer.base}/detections/export`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-disposition']).toMatch(/attachment/);
      const exported = response.json<{ type: string; features: Record<string, never>[] }>();
      expect(exported.type).toBe('FeatureCollection');
      expect(exported.features).toHaveLength(100_000);
      const first = nucleusFeature(layout, 0);
      expect(exported.features[0]).toMatchObject({
        type: 'Feature',
        geometry: first.geometry,
        properties: {
          objectType: 'detection',
          classification: { name: 'Tumor', color: [200, 0, 0] },
          measurements: first.properties.measurements,
        },
      });
    });
  });

  describe('refused imports store nothing', () => {
    const good = (index: number) => nucleusFeature(nucleusLayout({ x: 0, y: 0, width: 500, height: 500 }, 10), index);
    const blobGone = async (importId: string) => !(await t.blobs.exists(detectionImportKey(importId)));

    it.each([
      [
        'coordinates outside the image',
        {
          geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [0, 0],
                [50_000, 0],
                [0, 9],
                [0, 0],
              ],
            ],
          },
        },
        DETECTION_MESSAGES.outsideImage,
      ],
      ['a point', { geometry: { type: 'Point', coordinates: [5, 5] } }, DETECTION_MESSAGES.badGeometry],
      [
        'an open ring',
        {
          geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [0, 0],
                [9, 0],
                [0, 9],
                [1, 1],
              ],
            ],
          },
        },
        DETECTION_MESSAGES.badGeometry,
      ],
      [
        'a class without a name',
        { properties: { classification: { color: [1, 2, 3] } } },
        DETECTION_MESSAGES.badClassification,
      ],
    ])('fails the import naming the first bad feature: %s', async (_name, change, reason) => {
      const { base, layerId } = await layerIn();
      const features = [good(0), good(1), good(2), { ...good(3), ...change }, { ...good(4), ...change }];
      const { response, state } = await importText('mia', base, collection(features));
      expect(response.statusCode).toBe(202);
      expect(state).toMatchObject({
        status: 'failed',
        setId: null,
        error: { message: badDetectionFeatureMessage(3, reason), field: 'features[3]' },
        retryable: false,
      });
      // The fourth feature, counted as people count, with the index a reader finds it at in the file.
      expect(state!.error!.message).toBe(`Feature 4 (index 3) is not valid: ${reason}.`);
      expect(await storedRows(layerId)).toBe(0);
      expect(await blobGone(state!.id)).toBe(true);
    });

    it.each([
      ['not JSON', 'this is not json'],
      ['a JSON array', '  [{"type": "FeatureCollection"}]'],
      ['empty', ''],
    ])('refuses at once a file that is %s', async (_name, body) => {
      const { base, layerId } = await layerIn();
      const { response } = await importText('mia', base, body);
      expect(response.statusCode).toBe(422);
      const message = DETECTION_MESSAGES.notGeoJson;
      expect(response.json()).toEqual({ message, errors: { file: message } });
      expect(await storedRows(layerId)).toBe(0);
      const { rows } = await t.database.db.execute(
        sql`SELECT 1 FROM detection_imports WHERE image_layer_id = ${layerId}`,
      );
      expect(rows).toHaveLength(0);
    });

    it.each([
      ['cut short', collection([good(0), good(1)]).slice(0, -30), DETECTION_MESSAGES.notGeoJson],
      ['without features', JSON.stringify({ type: 'FeatureCollection', features: [] }), DETECTION_MESSAGES.noFeatures],
      [
        'of another GeoJSON type',
        JSON.stringify({ type: 'GeometryCollection', features: [good(0)] }),
        DETECTION_MESSAGES.notGeoJson,
      ],
    ])('fails the import of a file that is %s', async (_name, body, message) => {
      const { base, layerId } = await layerIn();
      const { response, state } = await importText('mia', base, body);
      expect(response.statusCode).toBe(202);
      expect(state).toMatchObject({ status: 'failed', error: { message, field: 'file' }, retryable: false });
      expect(await storedRows(layerId)).toBe(0);
    });

    it('leaves nothing of a crashed import, which pg-boss and then the user can retry', async () => {
      const { base, layerId } = await layerIn();
      const text = await syntheticDetectionsText(nucleusLayout({ x: 0, y: 0, width: 2000, height: 2000 }, 3000));
      const started = DetectionImportSchema.parse(
        (await send('mia', `${base}/detections?name=a.geojson`, text)).json(),
      );
      // The disk fails half-way through the file, on every attempt pg-boss makes.
      const failingBlobs = new Proxy(t.blobs, {
        get(target, property) {
          if (property !== 'get') {
            const value: unknown = Reflect.get(target, property, target);
            return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
          }
          return async (key: string) => {
            let read = 0;
            const eio = Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' });
            const failing = new Transform({
              transform(chunk: Buffer, _encoding, done) {
                read += chunk.length;
                done(read > text.length / 2 ? eio : null, chunk);
              },
            });
            return (await target.get(key)).pipe(failing);
          };
        },
      });
      const deps = { db: t.database.db, pool: t.database.pool, blobs: failingBlobs, log: pino({ level: 'silent' }) };
      await expect(
        detectionImportJob({ ...deps, maxFeatures: 1_000_000 }, { importId: started.id, retryCount: 0, retryLimit: 2 }),
      ).rejects.toThrow('EIO');
      const retrying = (await get('mia', `${base}/detections/imports/${started.id}`)).json();
      expect(retrying).toMatchObject({ status: 'running', retryable: false });
      expect(await storedRows(layerId)).toBe(0);
      // The last attempt's worker dies: the import is given up, and says so.
      await createGivenUpHandlers(deps)['detection-import']!({ importId: started.id });
      const failed = DetectionImportSchema.parse((await get('mia', `${base}/detections/imports/${started.id}`)).json());
      expect(failed).toMatchObject({ status: 'failed', error: { message: WORKER_LOST, field: null }, retryable: true });
      expect(await storedRows(layerId)).toBe(0);

      const retry = async (sub: string) =>
        t.app.inject({
          method: 'POST',
          url: `${base}/detections/imports/${started.id}/retry`,
          headers: await t.auth(sub),
        });
      expect((await retry('outsider')).statusCode).toBe(404);
      expect((await retry('viewer')).statusCode).toBe(403);
      const again = await retry('mia');
      expect(again.statusCode, again.body).toBe(202);
      expect(again.json()).toMatchObject({ status: 'waiting', error: null });
      expect((await retry('mia')).statusCode).toBe(409);
      await work(started.id);
      const done = (await get('mia', `${base}/detections/imports/${started.id}`)).json();
      expect(done).toMatchObject({ status: 'completed', features: 3000 });
      expect((await retry('mia')).statusCode).toBe(409);
      expect(await blobGone(started.id)).toBe(true);
    });
  });

  describe('permissions', () => {
    const file = async () => syntheticDetectionsText(nucleusLayout({ x: 100, y: 100, width: 2000, height: 2000 }, 50));

    it('lets members import, everyone on the case view, and hides the layer from others (404)', async () => {
      const { base } = await layerIn();
      expect((await importText('viewer', base, await file())).response.statusCode).toBe(403);
      expect((await importText('outsider', base, await file())).response.statusCode).toBe(404);
      const { id: importId } = await imported('mia', base, await file());
      const paths = ['', '/viewport?x=0&y=0&width=100&height=100&scale=1', '/tiles/16/0/0', '/at?x=1&y=1'];
      for (const path of [...paths, `/imports/${importId}`]) {
        expect((await get('outsider', `${base}/detections${path}`)).statusCode, path).toBe(404);
        expect((await get('viewer', `${base}/detections${path}`)).statusCode, path).toBe(200);
      }
      expect((await get('outsider', `${base}/detections/export`)).statusCode).toBe(404);
      expect((await get('viewer', `${base}/detections/export`)).statusCode).toBe(403);
      expect((await get('mia', `${base}/detections/export`)).statusCode).toBe(200);
      expect((await get('viewer', `/api/v1/images/not-an-id/layers/x/detections`)).statusCode).toBe(404);
    });

    it('tells a member of a group that denies drawing why an import is refused', async () => {
      const { base } = await layerIn(deniedGroup);
      const { response: refused } = await importText('denied-member', base, await file());
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe(DRAWING_MESSAGES.creationDenied);
    });

    it('exports only where drawings may be downloaded', async () => {
      const other = await make.organization({ downloadDrawingsEnabled: false });
      await make.join(await make.account({ subject: 'olga' }), other, 'member');
      const { base } = await layerIn(other);
      await imported('olga', base, await file());
      expect((await get('olga', `${base}/detections/export`)).statusCode).toBe(403);
    });

    it('deletes an import for its importer or an editor, not a read-only member or an outsider', async () => {
      const { base, layerId } = await layerIn();
      const { setId } = await imported('mia', base, await file());
      const remove = async (sub: string) =>
        t.app.inject({ method: 'DELETE', url: `${base}/detections/${setId}`, headers: await t.auth(sub) });
      expect((await remove('outsider')).statusCode).toBe(404);
      expect((await remove('viewer')).statusCode).toBe(403);
      expect((await remove('max')).statusCode).toBe(204);
      expect(await storedRows(layerId)).toBe(0);
      expect((await remove('mia')).statusCode).toBe(404);
    });
  });

  it('adds the detections inside each area drawing to the measurements CSV of the drawings download', async () => {
    const { base, imageId } = await layerIn();
    const layout = nucleusLayout({ x: 0, y: 0, width: 1000, height: 1000 }, 100);
    await imported('mia', base, await syntheticDetectionsText(layout));
    const rect = { x: 0, y: 0, width: 500, height: 300 };
    const ring = [
      [0, 0],
      [500, 0],
      [500, 300],
      [0, 300],
      [0, 0],
    ];
    const json = { 'content-type': 'application/json' };
    const drawing = JSON.stringify({ shapeType: 'rectangle', geometry: { type: 'Polygon', coordinates: [ring] } });
    const drawn = (await send('mia', `${base}/drawings`, drawing, json)).json<{ id: string }>();
    const line = JSON.stringify({
      shapeType: 'line',
      geometry: {
        type: 'LineString',
        coordinates: [
          [0, 0],
          [9, 9],
        ],
      },
    });
    const lineId = (await send('mia', `${base}/drawings`, line, json)).json<{ id: string }>().id;
    const zip = await send('mia', '/api/v1/drawings/download', JSON.stringify({ imageIds: [imageId] }), json);
    expect(zip.statusCode).toBe(200);
    const entries = await zipEntries(zip.rawPayload);
    const csv = [...entries].find(([name]) => name.endsWith('measurements.csv'))![1].toString('utf8');
    const [header, ...rows] = csv.replace('\uFEFF', '').trim().split('\n');
    expect(header).toMatch(
      /,detections,detections: Tumor,detections: Stroma,detections: Immune cells,detections: Necrosis$/,
    );
    const expected = nucleiInside(layout, rect);
    const total = [...expected.values()].reduce((a, b) => a + b);
    expect(rows.find((row) => row.startsWith(drawn.id))).toMatch(
      new RegExp(`,${total},${[...expected.values()].join(',')}$`),
    );
    expect(rows.find((row) => row.startsWith(lineId))).toMatch(/,,,,,$/);
  });

  it('keeps a drawn tile in memory until its style, an import or a deletion changes the picture', async () => {
    const { base } = await layerIn();
    const lookups = async () => {
      const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
      const count = (result: string) =>
        Number(
          text.match(new RegExp(`^detection_tile_cache_lookups_total\\{result="${result}"\\} (\\d+)$`, 'm'))?.[1] ?? 0,
        );
      return { hit: count('hit'), miss: count('miss') };
    };
    const painted = async (query = '') => {
      const response = await get('viewer', `${base}/detections/tiles/16/0/0${query}`);
      expect(response.statusCode, response.body).toBe(200);
      const { data } = await sharp(response.rawPayload).raw().toBuffer({ resolveWithObject: true });
      let count = 0;
      for (let at = 3; at < data.length; at += 4) if (data[at]! > 0) count += 1;
      return count;
    };
    /** What the steps in `body` looked up, as hits and misses. */
    const looked = async (body: () => Promise<unknown>) => {
      const before = await lookups();
      await body();
      const after = await lookups();
      return { hit: after.hit - before.hit, miss: after.miss - before.miss };
    };
    // Nuclei every 100 pixels, centred from (50, 50) on: 25 of them in tile (0, 0) of the top level.
    const first = await imported(
      'mia',
      base,
      await syntheticDetectionsText(nucleusLayout({ x: 0, y: 0, width: 500, height: 1000 }, 50)),
    );
    let alone = 0;
    expect(await looked(async () => (alone = await painted()))).toEqual({ hit: 0, miss: 1 });
    expect(alone).toBeGreaterThan(0);
    expect(await looked(async () => expect(await painted()).toBe(alone))).toEqual({ hit: 1, miss: 0 });
    // Another style is another picture.
    expect(await looked(async () => expect(await painted('?hide=0,1,2,3')).toBe(0))).toEqual({ hit: 0, miss: 1 });

    // A second import, each nucleus between four of the first: drawn again, with both.
    await imported(
      'mia',
      base,
      await syntheticDetectionsText(nucleusLayout({ x: 50, y: 50, width: 500, height: 1000 }, 50)),
    );
    let both = 0;
    expect(await looked(async () => (both = await painted()))).toEqual({ hit: 0, miss: 1 });
    expect(both).toBeGreaterThan(alone);

    // Without the first: drawn again, with the second only.
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `${base}/detections/${first.setId}`,
      headers: await t.auth('mia'),
    });
    expect(removed.statusCode).toBe(204);
    let second = 0;
    expect(await looked(async () => (second = await painted()))).toEqual({ hit: 0, miss: 1 });
    expect(second).toBeLessThan(both);
    expect(second).toBeGreaterThan(0);
  });

  it('goes with its image and its layer', async () => {
    const byImage = await layerIn();
    const byLayer = await layerIn();
    const text = await syntheticDetectionsText(nucleusLayout({ x: 0, y: 0, width: 1000, height: 1000 }, 20));
    for (const { base } of [byImage, byLayer]) await imported('mia', base, text);
    expect(await storedRows(byImage.layerId)).toBeGreaterThan(20);
    // An upload still waiting for its job when its layer goes: the job finds nothing, and drops the file.
    const waiting = await send('mia', `${byLayer.base}/detections?name=late.geojson`, text);
    const waitingId = DetectionImportSchema.parse(waiting.json()).id;
    await t.database.db.execute(sql`DELETE FROM images WHERE id = ${byImage.imageId}`);
    await t.database.db.execute(sql`DELETE FROM image_layers WHERE id = ${byLayer.layerId}`);
    expect(await storedRows(byImage.layerId)).toBe(0);
    expect(await storedRows(byLayer.layerId)).toBe(0);
    expect(await t.blobs.exists(detectionImportKey(waitingId))).toBe(true);
    await work(waitingId);
    expect(await t.blobs.exists(detectionImportKey(waitingId))).toBe(false);
  });

  it('removes the files its imports still keep when their image or case is deleted', async () => {
    const text = await syntheticDetectionsText(nucleusLayout({ x: 0, y: 0, width: 1000, height: 1000 }, 20));
    const keptFile = async (base: string) => {
      const started = DetectionImportSchema.parse(
        (await send('mia', `${base}/detections?name=a.geojson`, text)).json(),
      );
      // Failed for a reason a retry may mend: the file stays for the user's retry, and no job will come for it.
      await t.database.db.execute(
        sql`UPDATE detection_imports SET status = 'failed', error_message = 'disk' WHERE id = ${started.id}`,
      );
      expect(await t.blobs.exists(detectionImportKey(started.id))).toBe(true);
      return detectionImportKey(started.id);
    };
    const byImage = await layerIn();
    const imageFile = await keptFile(byImage.base);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/images/${byImage.imageId}`,
      headers: await t.auth('mia'),
    });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await t.blobs.exists(imageFile)).toBe(false);

    const byCase = await layerIn();
    const caseFile = await keptFile(byCase.base);
    await make.join(await make.account({ subject: 'case-admin' }), group, 'administrator');
    const gone = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/cases/${byCase.caseId}?recursive=true`,
      headers: await t.auth('case-admin'),
    });
    expect(gone.statusCode, gone.body).toBe(204);
    expect(await t.blobs.exists(caseFile)).toBe(false);
  });
});

describe('detection import limits', () => {
  const t = useTestApp({ detectionImport: { maxBytes: 4_000, maxFeatures: 3 } });
  const work = importWorker(t, 3);

  it('refuses a file over the size limit at once and one over the feature limit in its job, storing nothing', async () => {
    const make = factories(t.database.db);
    const group = await make.organization();
    await make.join(await make.account({ subject: 'mia' }), group, 'member');
    const caseId = await make.case({ ownerOrganizationId: group });
    const imageId = await make.image(caseId);
    const layerId = await make.imageLayer(imageId, SIZE);
    const url = `/api/v1/images/${imageId}/layers/${layerId}/detections`;
    const layout = nucleusLayout({ x: 0, y: 0, width: 1000, height: 1000 }, 40);
    const post = async (count: number) =>
      uploadAndImport(t, work, 'mia', url, await syntheticDetectionsText({ ...layout, count }));
    const big = await post(40);
    expect(big.response.statusCode).toBe(422);
    expect(big.response.json().message).toBe(DETECTION_MESSAGES.tooLarge);
    // Without a Content-Length, the limit is found as the body arrives.
    const streamed = await t.app.inject({
      method: 'POST',
      url,
      headers: { ...(await t.auth('mia')), ...GEOJSON },
      payload: syntheticDetections({ ...layout, count: 40 }),
    });
    expect(streamed.statusCode).toBe(422);
    expect(streamed.json().message).toBe(DETECTION_MESSAGES.tooLarge);
    const many = await post(4);
    expect(many.response.statusCode).toBe(202);
    expect(many.state).toMatchObject({
      status: 'failed',
      error: { message: DETECTION_MESSAGES.tooManyFeatures, field: 'file' },
    });
    const { rows } = await t.database.db.execute<{ count: number }>(
      sql`SELECT count(*)::int AS count FROM detection_sets`,
    );
    expect(rows[0]!.count).toBe(0);
    expect((await post(3)).state).toMatchObject({ status: 'completed', features: 3 });
  });
});
