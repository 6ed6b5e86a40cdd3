import { Readable } from 'node:stream';
import type { ImageStatus } from '@pathology/contract';
import type { TestContext } from './test-app.ts';
import { factories } from './factories.ts';

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
