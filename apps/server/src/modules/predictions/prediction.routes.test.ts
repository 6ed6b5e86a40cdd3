import fs from 'node:fs/promises';
import path from 'node:path';
import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { factories } from '#test/factories.ts';
import { convertedSlide } from '#test/image-fixtures.ts';
import { testModelFolders } from '#test/models.ts';
import { useTestApp } from '#test/test-app.ts';
import { slidePath } from '#test/testdata.ts';
import { createGivenUpHandlers } from '../../jobs/handlers.ts';
import { WORKER_LOST } from '../../jobs/job-queue.ts';
import { createPyramidCache } from '../iiif/pyramid-cache.ts';
import { createModelRegistry } from './model-registry.ts';
import { encodeModel } from './onnx-graph.ts';
import { predictJob } from './prediction.job.ts';

describe('prediction routes and the predict job', () => {
  const t = useTestApp();
  let make: ReturnType<typeof factories>;
  let group: string;
  let caseId: string;
  let slide: { imageId: string; layerId: string };
  let closedGroup: string;

  beforeAll(async () => {
    make = factories(t.database.db);
    group = await make.organization({ predictionEnabled: true });
    closedGroup = await make.organization({ predictionEnabled: false });
    await make.join(await make.account({ subject: 'mia' }), group, 'member');
    await make.join(await make.account({ subject: 'viewer' }), group, 'read_only');
    await make.join(await make.account({ subject: 'closed' }), closedGroup, 'member');
    await make.account({ subject: 'outsider' });
    caseId = await make.case({ ownerOrganizationId: group });
    slide = await convertedSlide(t, caseId, slidePath('CMU-1-Small-Region.svs'), { organ: 'Colon' });
  }, 60_000);

  const call = async (sub: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: await t.auth(sub), ...(payload ? { payload } : {}) });

  /** What a worker does with the job: the real handler, in this process. */
  async function work(predictionId: string, retry = { retryCount: 0, retryLimit: 0 }) {
    const deps = {
      db: t.database.db,
      pool: t.database.pool,
      maxDetections: 1_000_000,
      log: pino({ level: 'silent' }),
      models: createModelRegistry(testModelFolders(t.dataDir)),
      pyramids: createPyramidCache({ blobs: t.blobs, cacheDir: path.join(t.dataDir, 'cache') }),
    };
    await predictJob(deps, { predictionId, ...retry });
  }

  const queued = async (predictionId: string) => {
    const { rows } = await t.database.pool.query(
      `SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'predict' AND data->>'predictionId' = $1`,
      [predictionId],
    );
    return rows[0].n as number;
  };

  it('lists the 17 catalogue models, available only where installed, and those that fit an image', async () => {
    const all = (await call('mia', 'GET', '/predictions/models')).json().data;
    expect(all).toHaveLength(17);
    const available = all.filter((model: { status: string }) => model.status === 'available');
    expect(available.map((model: { modelName: string }) => model.modelName)).toEqual(['others']);
    expect(available[0]).toMatchObject({
      version: '1.0.0',
      labelGroups: [{ labelNames: ['High nuclear density'], modelName: 'others' }],
    });

    const fitting = (await call('mia', 'GET', `/predictions/models?imageId=${slide.imageId}`)).json().data;
    expect(fitting.map((model: { modelName: string }) => model.modelName)).toEqual([
      'colon-biopsy',
      'colon-surgical',
      'others',
    ]);
    expect((await call('outsider', 'GET', `/predictions/models?imageId=${slide.imageId}`)).statusCode).toBe(404);
  });

  it('refuses requests without the capability, for groups without prediction, and for models not installed', async () => {
    const body = { imageLayerId: slide.layerId, modelName: 'others' };
    expect((await call('viewer', 'POST', '/predictions/request', body)).statusCode).toBe(403);
    expect((await call('outsider', 'POST', '/predictions/request', body)).statusCode).toBe(404);
    const closedCase = await make.case({ ownerOrganizationId: closedGroup });
    const closedLayer = await make.imageLayer(await make.image(closedCase), {});
    const disabled = await call('closed', 'POST', '/predictions/request', { ...body, imageLayerId: closedLayer });
    expect(disabled.statusCode).toBe(403);
    const notInstalled = await call('mia', 'POST', '/predictions/request', { ...body, modelName: 'colon-biopsy' });
    expect(notInstalled.statusCode).toBe(422);
    expect(notInstalled.json().message).toBe('This AI model is not available.');
  });

  it('runs tissue detection and the nuclear-density model over a real slide and stores the result', async () => {
    const requested = await call('mia', 'POST', '/predictions/request', {
      imageLayerId: slide.layerId,
      modelName: 'others',
    });
    expect(requested.statusCode).toBe(201);
    const prediction = requested.json();
    expect(prediction).toMatchObject({ status: 'waiting', modelName: 'others', progress: { done: 0, total: 0 } });
    expect(await queued(prediction.id)).toBe(1);
    const again = await call('mia', 'POST', '/predictions/request', {
      imageLayerId: slide.layerId,
      modelName: 'others',
    });
    expect(again.statusCode).toBe(409);

    await work(prediction.id);
    const done = (await call('viewer', 'GET', `/predictions/${prediction.id}`)).json();
    expect(done.status).toBe('completed');
    expect(done.progress.total).toBeGreaterThan(0);
    expect(done.progress.done).toBe(done.progress.total);
    const result = done.result;
    // CMU-1-Small-Region is 2220 × 2967 at 0.499 µm: ×20, read at ×10 in 128-pixel cells of 256 full-resolution pixels.
    expect(result).toMatchObject({
      cellSize: 256,
      version: '1.0.0',
      labels: { '1': 'High nuclear density' },
      threshold: 50,
    });
    const keys = Object.keys(result.cells);
    expect(keys.length).toBe(result.numberOfConsideredCells);
    expect(result.numberOfConsideredCells).toBeGreaterThan(10);
    expect(result.numberOfConsideredCells).toBeLessThan(done.progress.total);
    for (const key of keys) expect(key).toMatch(/^\d+:\d+$/);
    const probabilities = keys.map((key) => result.cells[key]['1'] as number);
    expect(Math.max(...probabilities)).toBeGreaterThan(50);
    expect(Math.min(...probabilities)).toBeLessThan(50);

    const image = (await call('viewer', 'GET', `/images/${slide.imageId}`)).json();
    expect(image.predictions.map((p: { id: string }) => p.id)).toContain(prediction.id);
  });

  it('runs a model an operator installs by dropping an .onnx file and a manifest entry into MODELS_DIR', async () => {
    const { modelsDir } = testModelFolders(t.dataDir);
    await fs.mkdir(modelsDir, { recursive: true });
    // Brightness of the red channel as the probability of one label: a model of the documented contract.
    const model = encodeModel({
      name: 'red-share',
      metadata: { version: 'test-1' },
      input: { name: 'image', shape: ['batch', 3, 32, 32] },
      output: { name: 'probabilities', shape: ['batch', 1] },
      constants: { scale: { dims: [1, 3, 1, 1], values: [1 / 255, 0, 0] } },
      nodes: [
        { op: 'Conv', inputs: ['image', 'scale'], output: 'red' },
        { op: 'GlobalAveragePool', inputs: ['red'], output: 'pooled' },
        { op: 'Flatten', inputs: ['pooled'], output: 'probabilities', attributes: [{ name: 'axis', int: 1 }] },
      ],
    });
    await fs.writeFile(path.join(modelsDir, 'red.onnx'), model);
    const manifest = {
      models: [
        {
          modelName: 'colon-biopsy',
          file: 'red.onnx',
          version: 'test-1',
          inputSize: 32,
          magnification: 5,
          labels: ['Adenocarcinoma'],
          labelGroups: [
            {
              name: 'carcinoma',
              labelNames: ['Adenocarcinoma'],
              type: 'abnormal',
              displayName: 'Carcinoma',
              color: '#fa5252',
              positive: true,
            },
          ],
        },
      ],
    };
    await fs.writeFile(path.join(modelsDir, 'manifest.json'), JSON.stringify(manifest));

    const models = (await call('mia', 'GET', '/predictions/models')).json().data;
    expect(models.find((entry: { modelName: string }) => entry.modelName === 'colon-biopsy')).toMatchObject({
      status: 'available',
      version: 'test-1',
    });
    const prediction = (
      await call('mia', 'POST', '/predictions/request', { imageLayerId: slide.layerId, modelName: 'colon-biopsy' })
    ).json();
    await work(prediction.id);
    const done = (await call('mia', 'GET', `/predictions/${prediction.id}`)).json();
    expect(done.status).toBe('completed');
    // ×20 read at ×5: 32-pixel cells of 128 full-resolution pixels.
    expect(done.result).toMatchObject({ cellSize: 128, version: 'test-1', labels: { '1': 'Adenocarcinoma' } });
    const values = Object.values(done.result.cells as Record<string, Record<string, number>>).map((cell) => cell['1']!);
    for (const value of values) expect(value).toBeGreaterThan(20);
  });

  it('recovers a failed or lost prediction, and deletes, each with its capability', async () => {
    const prediction = (
      await call('mia', 'POST', '/predictions/bulk/request', {
        organizationId: group,
        predictionImages: [
          {
            imageId: (
              await convertedSlide(
                t,
                await make.case({ ownerOrganizationId: group }),
                slidePath('CMU-1-Small-Region.svs'),
              )
            ).imageId,
            modelName: 'others',
          },
        ],
      })
    ).json().requested[0];
    // The worker died on its last attempt: the given-up handler records the failure, never leaving it running.
    await t.database.pool.query(`UPDATE predictions SET status = 'running' WHERE id = $1`, [prediction.id]);
    await createGivenUpHandlers({ db: t.database.db, log: pino({ level: 'silent' }) }).predict!({
      predictionId: prediction.id,
    });
    const failed = (await call('mia', 'GET', `/predictions/${prediction.id}`)).json();
    expect(failed).toMatchObject({ status: 'failed', errorMessage: WORKER_LOST });

    expect((await call('viewer', 'PUT', `/predictions/${prediction.id}/recover`)).statusCode).toBe(403);
    const recovered = await call('mia', 'PUT', `/predictions/${prediction.id}/recover`);
    expect(recovered.statusCode).toBe(200);
    expect(recovered.json()).toMatchObject({ status: 'waiting', errorMessage: null, result: null });
    expect(await queued(prediction.id)).toBe(2);

    await work(prediction.id);
    expect((await call('mia', 'PUT', `/predictions/${prediction.id}/recover`)).statusCode).toBe(409);
    expect((await call('mia', 'PUT', `/predictions/${prediction.id}/recover?force`)).json().status).toBe('waiting');

    expect((await call('viewer', 'DELETE', `/predictions/${prediction.id}`)).statusCode).toBe(403);
    expect((await call('mia', 'DELETE', `/predictions/${prediction.id}`)).statusCode).toBe(204);
    expect((await call('mia', 'GET', `/predictions/${prediction.id}`)).statusCode).toBe(404);
    // The job of a deleted prediction finds nothing to do.
    await work(prediction.id);
  }, 30_000);

  it('starts bulk analysis only for images with a model and no prediction of it, and only in the named group', async () => {
    const fresh = await convertedSlide(
      t,
      await make.case({ ownerOrganizationId: group }),
      slidePath('CMU-1-Small-Region.svs'),
      {
        modelName: 'others',
      },
    );
    const noModel = await make.image(caseId);
    const response = await call('mia', 'POST', '/predictions/bulk/request', {
      organizationId: group,
      predictionImages: [
        { imageId: fresh.imageId, modelName: '' },
        { imageId: noModel, modelName: '' },
        { imageId: slide.imageId, modelName: 'others' },
      ],
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.requested.map((p: { imageId: string }) => p.imageId)).toEqual([fresh.imageId]);
    expect(body.skipped).toEqual([
      { imageId: noModel, reason: 'emptyModel' },
      { imageId: slide.imageId, reason: 'alreadyAnalyzed' },
    ]);
    const otherGroup = await make.organization({ predictionEnabled: true });
    const wrongGroup = await call('mia', 'POST', '/predictions/bulk/request', {
      organizationId: otherGroup,
      predictionImages: [{ imageId: fresh.imageId, modelName: 'others' }],
    });
    expect(wrongGroup.statusCode).toBe(404);
    const closed = await call('closed', 'POST', '/predictions/bulk/request', {
      organizationId: group,
      predictionImages: [{ imageId: fresh.imageId, modelName: 'others' }],
    });
    expect(closed.statusCode).toBe(404);
    expect(
      (
        await call('viewer', 'POST', '/predictions/bulk/request', {
          organizationId: group,
          predictionImages: [{ imageId: noModel, modelName: 'others' }],
        })
      ).statusCode,
    ).toBe(403);
  }, 30_000);
});
