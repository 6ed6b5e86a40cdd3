import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { factories } from '#test/factories.ts';
import { createTestDatabase, type TestDatabase } from '#test/test-database.ts';
import { slidePath } from '#test/testdata.ts';
import { imageAssociated, imageLayers, images, organizations } from '../../db/schema/index.ts';
import { FilesystemBlobStore } from '../../storage/filesystem-blob-store.ts';
import { imageBlobKeys, sweepImageBlobs } from './image-blobs.ts';
import { convertImageJob, type ConversionDeps } from './image-conversion.job.ts';

describe('a conversion shared by the images of one original', () => {
  let database: TestDatabase;
  let root: string;
  let deps: ConversionDeps;
  let f: ReturnType<typeof factories>;

  beforeAll(async () => {
    database = await createTestDatabase();
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'pathology-shared-conversion-'));
    f = factories(database.db);
    deps = {
      db: database.db,
      blobs: new FilesystemBlobStore(path.join(root, 'blobs')),
      log: pino({ level: 'silent' }),
      scratchDir: path.join(root, 'tmp'),
      timeoutSeconds: 120,
    };
  });
  afterAll(async () => {
    await database.close();
    await fs.rm(root, { recursive: true, force: true });
  });

  async function imageIn(organizationId: string, originalKey: string, status: 'uploaded' | 'processing') {
    const caseId = await f.case({ ownerOrganizationId: organizationId });
    return f.image(caseId, { status, filename: 'slide.svs', originalKey });
  }

  async function rowsOf(imageId: string) {
    const [image] = await database.db.select().from(images).where(eq(images.id, imageId));
    const layers = await database.db.select().from(imageLayers).where(eq(imageLayers.imageId, imageId));
    const associated = await database.db.select().from(imageAssociated).where(eq(imageAssociated.imageId, imageId));
    return {
      image: image!,
      layerKeys: layers.map((layer) => layer.pyramidKey).sort(),
      pyramidal: layers.reduce((sum, layer) => sum + layer.pyramidalSize, 0),
      associatedKeys: associated.map((picture) => picture.blobKey).sort(),
    };
  }

  async function pyramidalUsage(organizationId: string): Promise<number> {
    const [group] = await database.db.select().from(organizations).where(eq(organizations.id, organizationId));
    return group!.usedPyramidalBytes;
  }

  it('is given to the waiting images on commit, counted in their groups, and their blobs outlive the source', async () => {
    const here = await f.organization();
    const there = await f.organization();
    const sourceId = await f.image(await f.case({ ownerOrganizationId: here }), { status: 'uploaded' });
    const originalKey = imageBlobKeys.original(sourceId);
    await deps.blobs.put(originalKey, createReadStream(slidePath('CMU-1-Small-Region.svs')));
    await database.db.update(images).set({ originalKey }).where(eq(images.id, sourceId));
    const sameGroup = await imageIn(here, originalKey, 'uploaded');
    const otherGroup = await imageIn(there, originalKey, 'uploaded');
    // Its own conversion has started: it keeps it.
    const converting = await imageIn(there, originalKey, 'processing');

    await convertImageJob(deps, { imageId: sourceId, retryCount: 0, retryLimit: 2 });

    const source = await rowsOf(sourceId);
    expect(source.image.status).toBe('available');
    expect(source.layerKeys).toHaveLength(1);
    expect(source.associatedKeys.length).toBeGreaterThan(0);
    for (const imageId of [sameGroup, otherGroup]) {
      const shared = await rowsOf(imageId);
      expect(shared.image).toMatchObject({
        status: 'available',
        width: 2220,
        height: 2967,
        format: 'aperio',
        magnification: 20,
        thumbnailKey: source.image.thumbnailKey,
        conversionProgress: null,
      });
      expect(shared.layerKeys).toEqual(source.layerKeys);
      expect(shared.associatedKeys).toEqual(source.associatedKeys);
    }
    expect((await rowsOf(converting)).image.status).toBe('processing');
    expect((await rowsOf(converting)).layerKeys).toEqual([]);
    expect(await pyramidalUsage(here)).toBe(2 * source.pyramidal);
    expect(await pyramidalUsage(there)).toBe(source.pyramidal);

    // The waiting image's own conversion job, run later, finds nothing to do.
    await convertImageJob(deps, { imageId: otherGroup, retryCount: 0, retryLimit: 2 });
    expect((await rowsOf(otherGroup)).layerKeys).toEqual(source.layerKeys);

    // Deleting the source keeps every blob the others still name.
    await database.db.delete(images).where(inArray(images.id, [sourceId]));
    await sweepImageBlobs(database.db, deps.blobs, sourceId);
    const named = [originalKey, source.image.thumbnailKey!, ...source.layerKeys, ...source.associatedKeys];
    for (const key of named) expect(await deps.blobs.exists(key), key).toBe(true);
  });
});
