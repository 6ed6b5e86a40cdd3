import { DETECTION_MESSAGES, DetectionImportSchema } from '@pathology/contract';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { factories } from '#test/factories.ts';
import { nucleusFeature, nucleusLayout } from '#test/synthetic-detections.ts';
import { useTestApp } from '#test/test-app.ts';
import { detectionImportJob } from './detection-import.job.ts';
import { detectionImportKey } from './detection-upload.ts';

const GEOJSON = { 'content-type': 'application/geo+json' };

/** A FeatureCollection of one good nucleus whose properties nest `depth` objects deep. */
function deepFile(depth: number): string {
  const feature = { ...nucleusFeature(nucleusLayout({ x: 0, y: 0, width: 500, height: 500 }, 1), 0), properties: 0 };
  const text = JSON.stringify({ type: 'FeatureCollection', features: [feature] });
  return text.replace('"properties":0', `"properties":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);
}

describe('a GeoJSON file nested 100,000 levels deep', () => {
  const t = useTestApp();
  let base: string;
  let layerId: string;

  beforeAll(async () => {
    const make = factories(t.database.db);
    const group = await make.organization();
    await make.join(await make.account({ subject: 'mia' }), group, 'member');
    const imageId = await make.image(await make.case({ ownerOrganizationId: group }));
    layerId = await make.imageLayer(imageId, { width: 4_000, height: 3_000 });
    base = `/api/v1/images/${imageId}/layers/${layerId}/detections`;
  });

  const post = async (body: string) =>
    t.app.inject({
      method: 'POST',
      url: `${base}?name=deep.geojson`,
      headers: { ...(await t.auth('mia')), ...GEOJSON },
      payload: body,
    });
  const message = DETECTION_MESSAGES.nestedTooDeep;

  it('is refused at once with 422, and nothing is stored', async () => {
    const response = await post(deepFile(100_000));
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({ message, errors: { file: message } });
    const { rows } = await t.database.db.execute(
      sql`SELECT 1 FROM detection_imports WHERE image_layer_id = ${layerId}`,
    );
    expect(rows).toHaveLength(0);
  });

  it('fails for good, not to be retried, when the import job meets it (a file stored before uploads were measured)', async () => {
    const started = DetectionImportSchema.parse((await post(deepFile(10))).json());
    await t.blobs.put(detectionImportKey(started.id), Readable.from([deepFile(100_000)]));
    const deps = { db: t.database.db, pool: t.database.pool, blobs: t.blobs, log: pino({ level: 'silent' }) };
    await detectionImportJob({ ...deps, maxFeatures: 1000 }, { importId: started.id, retryCount: 0, retryLimit: 2 });
    const headers = await t.auth('mia');
    const state = await t.app.inject({ method: 'GET', url: `${base}/imports/${started.id}`, headers });
    expect(state.json()).toMatchObject({ status: 'failed', error: { message, field: 'file' }, retryable: false });
    const retry = await t.app.inject({ method: 'POST', url: `${base}/imports/${started.id}/retry`, headers });
    expect(retry.statusCode).toBe(409);
  });
});
