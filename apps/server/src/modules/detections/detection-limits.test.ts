import {
  badDetectionFeatureMessage,
  DETECTION_MESSAGES,
  DetectionImportSchema,
  MAX_DETECTION_FEATURE_MB,
  MAX_DETECTION_VERTICES,
} from '@pathology/contract';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { factories } from '#test/factories.ts';
import { nucleusFeature, nucleusLayout } from '#test/synthetic-detections.ts';
import { useTestApp } from '#test/test-app.ts';
import { detectionImportJob } from './detection-import.job.ts';

const SIZE = { width: 40_000, height: 30_000 };

/** A closed ring of `count` positions (the last repeats the first) around the image's middle, as JSON text. */
function ringText(count: number): string {
  const positions: string[] = [];
  for (let index = 0; index < count - 1; index += 1) {
    const angle = (2 * Math.PI * index) / (count - 1);
    positions.push(
      `[${(20_000 + 10_000 * Math.cos(angle)).toFixed(1)},${(15_000 + 10_000 * Math.sin(angle)).toFixed(1)}]`,
    );
  }
  positions.push(positions[0]!);
  return `[${positions.join(',')}]`;
}

const polygonFeature = (ring: string, extra = '') =>
  `{"type":"Feature","geometry":{"type":"Polygon","coordinates":[${ring}]},"properties":{${extra}}}`;

describe('detection import limits on polygon points', () => {
  const t = useTestApp();
  const small = nucleusLayout({ x: 0, y: 0, width: 500, height: 500 }, 10);
  const good = (index: number) => JSON.stringify(nucleusFeature(small, index));
  let base: string;
  let layerId: string;

  beforeAll(async () => {
    const make = factories(t.database.db);
    const group = await make.organization();
    await make.join(await make.account({ subject: 'mia' }), group, 'member');
    const imageId = await make.image(await make.case({ ownerOrganizationId: group }));
    layerId = await make.imageLayer(imageId, SIZE);
    base = `/api/v1/images/${imageId}/layers/${layerId}/detections`;
  });

  /** Uploads a FeatureCollection of these features' texts and runs its job as a worker would; the import's state. */
  async function importOf(features: string[], maxVertices?: number) {
    const accepted = await t.app.inject({
      method: 'POST',
      url: base,
      headers: { ...(await t.auth('mia')), 'content-type': 'application/geo+json' },
      payload: `{"type":"FeatureCollection","features":[${features.join(',')}]}`,
    });
    expect(accepted.statusCode, accepted.body).toBe(202);
    const { id } = DetectionImportSchema.parse(accepted.json());
    const deps = { db: t.database.db, pool: t.database.pool, blobs: t.blobs, log: pino({ level: 'silent' }) };
    await detectionImportJob(
      { ...deps, maxFeatures: 1_000_000, maxVertices },
      { importId: id, retryCount: 0, retryLimit: 0 },
    );
    const state = await t.app.inject({ method: 'GET', url: `${base}/imports/${id}`, headers: await t.auth('mia') });
    return DetectionImportSchema.parse(state.json());
  }

  const storedSets = async () =>
    (
      await t.database.db.execute<{ count: number }>(
        sql`SELECT count(*)::int AS count FROM detection_sets WHERE image_layer_id = ${layerId}`,
      )
    ).rows[0]!.count;

  it('fails an import naming the feature with more points than a drawing may have, and takes one with as many', async () => {
    const over = await importOf([good(0), good(1), polygonFeature(ringText(MAX_DETECTION_VERTICES + 1)), good(3)]);
    expect(over).toMatchObject({
      status: 'failed',
      setId: null,
      retryable: false,
      error: {
        message: badDetectionFeatureMessage(2, DETECTION_MESSAGES.featureTooManyVertices),
        field: 'features[2]',
      },
    });
    expect(await storedSets()).toBe(0);
    const most = await importOf([good(0), polygonFeature(ringText(MAX_DETECTION_VERTICES))]);
    expect(most).toMatchObject({ status: 'completed', features: 2 });
  });

  it('fails an import naming a feature whose text is longer than the limit', async () => {
    // Padding that is no polygon point: the text limit holds whatever makes a feature long.
    const padding = `"note":"${'x'.repeat(MAX_DETECTION_FEATURE_MB * 1024 * 1024)}"`;
    const before = await storedSets();
    const long = await importOf([good(0), polygonFeature(ringText(10), padding), good(2)]);
    expect(long).toMatchObject({
      status: 'failed',
      error: { message: badDetectionFeatureMessage(1, DETECTION_MESSAGES.featureTooLarge), field: 'features[1]' },
    });
    expect(await storedSets()).toBe(before);
  });

  it('fails an import whose features have more points in all than the import limit', async () => {
    const features = Array.from({ length: 10 }, (_, index) => good(index));
    const before = await storedSets();
    expect(await importOf(features, 100)).toMatchObject({
      status: 'failed',
      error: { message: DETECTION_MESSAGES.tooManyVertices, field: 'file' },
    });
    expect(await storedSets()).toBe(before);
    expect(await importOf(features, 1_000)).toMatchObject({ status: 'completed', features: 10 });
  });
});
