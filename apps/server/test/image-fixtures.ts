import { createReadStream } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ImageStatus } from '@pathology/contract';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { imageLayers, images } from '../src/db/schema/index.ts';
import { imageBlobKeys } from '../src/modules/images/image-blobs.ts';
import { convertImageJob } from '../src/modules/images/image-conversion.job.ts';
import type { TestContext } from './test-app.ts';
import { factories } from './factories.ts';

/** Stores a real slide file as a new image of the case and converts it through the real job. */
export async function convertedSlide(
  t: TestContext,
  caseId: string,
  file: string,
  values: { organ?: string; modelName?: string } = {},
): Promise<{ imageId: string; layerId: string }> {
  const make = factories(t.database.db);
  const imageId = await make.image(caseId, { status: 'uploaded', filename: path.basename(file), ...values });
  const key = imageBlobKeys.original(imageId);
  await t.blobs.put(key, createReadStream(file));
  await t.database.db.update(images).set({ originalKey: key }).where(eq(images.id, imageId));
  const deps = { db: t.database.db, blobs: t.blobs, log: pino({ level: 'silent' }), timeoutSeconds: 120 };
  await convertImageJob(
    { ...deps, scratchDir: path.join(t.dataDir, 'tmp') },
    { imageId, retryCount: 0, retryLimit: 0 },
  );
  const [layer] = await t.database.db.select().from(imageLayers).where(eq(imageLayers.imageId, imageId));
  return { imageId, layerId: layer!.id };
}

/** Blob keys of a stored image, under its own folder as a conversion writes them. */
export function storedKeys(imageId: string, conversion = 'c1') {
  const folder = `images/${imageId}/conversions/${conversion}`;
  return {
    original: `images/${imageId}/original`,
    thumbnail: `${folder}/thumbnail.jpg`,
    layer: `${folder}/layer-0.tif`,
    label: `${folder}/label.jpg`,
  };
}

/**
 * An image with every file really stored in `t.blobs`: original (1000 bytes), thumbnail, one
 * 300-byte pyramid layer and a label picture. Usage totals are left to the test.
 */
export async function storedImage(
  t: TestContext,
  caseId: string,
  values: { filename?: string; status?: ImageStatus; original?: Buffer } = {},
): Promise<{ id: string; keys: ReturnType<typeof storedKeys> }> {
  const make = factories(t.database.db);
  const original = values.original ?? Buffer.alloc(1000, 7);
  const id = await make.image(caseId, {
    status: values.status ?? 'available',
    size: original.length,
    ...(values.filename ? { filename: values.filename, displayName: values.filename } : {}),
  });
  const keys = storedKeys(id);
  await t.database.pool.query(`UPDATE images SET original_key = $2, thumbnail_key = $3 WHERE id = $1`, [
    id,
    keys.original,
    keys.thumbnail,
  ]);
  await make.imageLayer(id, { pyramidKey: keys.layer, pyramidalSize: 300 });
  await make.imageAssociated(id, { kind: 'label', blobKey: keys.label });
  await t.blobs.put(keys.original, Readable.from(original));
  await t.blobs.put(keys.thumbnail, Readable.from(Buffer.from('thumbnail-jpeg')));
  await t.blobs.put(keys.layer, Readable.from(Buffer.alloc(300, 1)));
  await t.blobs.put(keys.label, Readable.from(Buffer.from('label-jpeg')));
  return { id, keys };
}

/** The usage totals of a group, in bytes. */
export async function usageOf(t: TestContext, organizationId: string) {
  const { rows } = await t.database.pool.query<{ original: number; pyramidal: number }>(
    `SELECT used_original_bytes::int AS original, used_pyramidal_bytes::int AS pyramidal
     FROM organizations WHERE id = $1`,
    [organizationId],
  );
  return rows[0]!;
}

/** How many conversion jobs were sent for an image, whatever their state now. */
export async function convertJobs(t: TestContext, imageId: string): Promise<number> {
  const { rows } = await t.database.pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'convert' AND data->>'imageId' = $1`,
    [imageId],
  );
  return rows[0]!.n;
}
