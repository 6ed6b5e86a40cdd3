import fs from 'node:fs/promises';
import path from 'node:path';
import { DetectionSummarySchema, DetectionViewportSchema, PredictionResultSchema } from '@pathology/contract';
import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { factories } from '#test/factories.ts';
import { convertedSlide } from '#test/image-fixtures.ts';
import { testModelFolders } from '#test/models.ts';
import { useTestApp } from '#test/test-app.ts';
import { slidePath } from '#test/testdata.ts';
import { createPyramidCache } from '../iiif/pyramid-cache.ts';
import { buildNuclearSegmentationModel } from './builtin-models.ts';
import { createModelRegistry } from './model-registry.ts';
import { predictJob } from './prediction.job.ts';

/** An operator's nuclear segmentation model whose manifest declares object output. */
const MANIFEST = {
  models: [
    {
      modelName: 'colon-biopsy',
      file: 'nuclei.onnx',
      version: 'seg-1',
      inputSize: 128,
      magnification: 20,
      labels: ['Nucleus'],
      labelGroups: [
        {
          name: 'nuclei',
          labelNames: ['Nucleus'],
          type: 'abnormal',
          displayName: 'Nuclei',
          color: '#7048e8',
          positive: true,
        },
      ],
      objects: { threshold: 0.5, minPixels: 12 },
    },
  ],
};

describe('a model with object output', () => {
  const t = useTestApp();
  let slide: { imageId: string; layerId: string };
  let base: string;

  beforeAll(async () => {
    const make = factories(t.database.db);
    const group = await make.organization({ predictionEnabled: true });
    await make.join(await make.account({ subject: 'mia' }), group, 'member');
    await make.join(await make.account({ subject: 'viewer' }), group, 'read_only');
    await make.account({ subject: 'outsider' });
    const caseId = await make.case({ ownerOrganizationId: group });
    slide = await convertedSlide(t, caseId, slidePath('CMU-1-Small-Region.svs'), { organ: 'Colon' });
    base = `/api/v1/images/${slide.imageId}/layers/${slide.layerId}/detections`;
    const { modelsDir } = testModelFolders(t.dataDir);
    await fs.mkdir(modelsDir, { recursive: true });
    await fs.writeFile(path.join(modelsDir, 'nuclei.onnx'), buildNuclearSegmentationModel());
    await fs.writeFile(path.join(modelsDir, 'manifest.json'), JSON.stringify(MANIFEST));
  }, 60_000);

  const call = async (sub: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: await t.auth(sub), ...(payload ? { payload } : {}) });

  async function work(predictionId: string) {
    const deps = {
      db: t.database.db,
      pool: t.database.pool,
      maxDetections: 1_000_000,
      log: pino({ level: 'silent' }),
      models: createModelRegistry(testModelFolders(t.dataDir)),
      pyramids: createPyramidCache({ blobs: t.blobs, cacheDir: path.join(t.dataDir, 'cache') }),
    };
    await predictJob(deps, { predictionId, retryCount: 0, retryLimit: 0 });
  }

  it('stores the objects it outlines on a real slide as the layer’s detections, replaced when it runs again, gone with it', async () => {
    const requested = await call('mia', 'POST', '/api/v1/predictions/request', {
      imageLayerId: slide.layerId,
      modelName: 'colon-biopsy',
    });
    expect(requested.statusCode, requested.body).toBe(201);
    const predictionId = requested.json<{ id: string }>().id;
    await work(predictionId);

    const done = (await call('viewer', 'GET', `/api/v1/predictions/${predictionId}`)).json();
    expect(done.status, done.errorMessage).toBe('completed');
    const result = PredictionResultSchema.parse(done.result);
    const stored = result.detections!;
    // CMU-1-Small-Region (2220 × 2967 at ×20) holds thousands of nuclei.
    expect(stored.count).toBeGreaterThan(500);
    // Each cell records the highest nucleus probability in it: tissue cells are mostly above even odds.
    const probabilities = Object.values(result.cells).map((labels) => labels['1']!);
    expect(probabilities.filter((value) => value >= 50).length).toBeGreaterThan(probabilities.length / 2);

    const summary = DetectionSummarySchema.parse((await call('viewer', 'GET', base)).json());
    expect(summary.sets).toEqual([expect.objectContaining({ id: stored.setId, name: 'colon-biopsy seg-1' })]);
    expect(summary.classes).toEqual([{ index: 0, name: 'Nucleus', color: '#7048e8', count: stored.count }]);
    expect((await call('outsider', 'GET', base)).statusCode).toBe(404);

    // Nuclei are small closed outlines inside the image, with their area.
    const close = DetectionViewportSchema.parse(
      (await call('viewer', 'GET', `${base}/viewport?x=0&y=0&width=1000&height=1000&scale=1`)).json(),
    );
    if (close.kind !== 'objects') throw new Error('a 1000-pixel square is seen as objects');
    expect(close.data.length).toBeGreaterThan(20);
    for (const object of close.data) {
      const ring = (object.geometry.coordinates as number[][][])[0]!;
      expect(ring[0]).toEqual(ring.at(-1));
      const xs = ring.map(([x]) => x!);
      const ys = ring.map(([, y]) => y!);
      expect(Math.max(...xs) - Math.min(...xs)).toBeLessThan(128);
      expect(Math.max(...ys) - Math.min(...ys)).toBeLessThan(128);
      expect((object.measurements as Record<string, number>)['Area px^2']).toBeGreaterThanOrEqual(12);
    }

    // Run again (forced): the new objects replace the old set, all at once.
    const again = await call('mia', 'PUT', `/api/v1/predictions/${predictionId}/recover?force`);
    expect(again.statusCode, again.body).toBe(200);
    await work(predictionId);
    const rerun = PredictionResultSchema.parse(
      (await call('mia', 'GET', `/api/v1/predictions/${predictionId}`)).json().result,
    );
    expect(rerun.detections!.setId).not.toBe(stored.setId);
    expect(rerun.detections!.count).toBe(stored.count);
    const after = DetectionSummarySchema.parse((await call('viewer', 'GET', base)).json());
    expect(after.sets.map((set) => set.id)).toEqual([rerun.detections!.setId]);
    expect(after.total).toBe(stored.count);
    // Its objects go with the prediction.
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/predictions/${predictionId}`,
      headers: await t.auth('mia'),
    });
    expect(removed.statusCode).toBe(204);
    expect(DetectionSummarySchema.parse((await call('viewer', 'GET', base)).json())).toMatchObject({
      sets: [],
      total: 0,
    });
  }, 180_000);
});
