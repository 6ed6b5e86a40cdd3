import { spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { factories } from '#test/factories.ts';
import { CONVERT_CRASH_POLICIES, CRASH_LEASE, type ConvertQueue } from '#test/fixtures/crash-queue.ts';
import { createTestDatabase, type TestDatabase } from '#test/test-database.ts';
import { slidePath } from '#test/testdata.ts';
import { drawings, imageAssociated, imageLayers, images, organizations } from '../../db/schema/index.ts';
import { JobQueue } from '../../jobs/job-queue.ts';
import { FilesystemBlobStore } from '../../storage/filesystem-blob-store.ts';
import { imageBlobKeys } from './image-blobs.ts';
import { convertImageJob, type ConversionDeps } from './image-conversion.job.ts';

const killedConverter = fileURLToPath(new URL('../../../test/fixtures/killed-converter.ts', import.meta.url));

describe('convert job', () => {
  let database: TestDatabase;
  let root: string;
  let deps: ConversionDeps;
  let f: ReturnType<typeof factories>;

  beforeAll(async () => {
    database = await createTestDatabase();
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'pathology-convert-'));
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

  /** An uploaded image whose original is `source` (a path or bytes), as the upload route leaves it. */
  async function uploaded(source: string | Buffer, organizationId?: string) {
    const ownerOrganizationId = organizationId ?? (await f.organization());
    const caseId = await f.case({ ownerOrganizationId });
    const imageId = await f.image(caseId, { status: 'uploaded', filename: 'slide.bin' });
    const key = imageBlobKeys.original(imageId);
    await deps.blobs.put(key, typeof source === 'string' ? createReadStream(source) : Readable.from([source]));
    await database.db.update(images).set({ originalKey: key }).where(eq(images.id, imageId));
    return { imageId, organizationId: ownerOrganizationId };
  }

  async function imageRow(imageId: string) {
    const [row] = await database.db.select().from(images).where(eq(images.id, imageId));
    return row!;
  }

  async function storedKeys(imageId: string): Promise<string[]> {
    const keys: string[] = [];
    for await (const key of deps.blobs.list(imageBlobKeys.prefix(imageId))) keys.push(key);
    return keys.sort();
  }

  it('converts a real Aperio slide: metadata, one pyramid, thumbnail, label and macro, group usage', async () => {
    const { imageId, organizationId } = await uploaded(slidePath('CMU-1-Small-Region.svs'));
    await convertImageJob(deps, { imageId, retryCount: 0, retryLimit: 2 });

    const image = await imageRow(imageId);
    expect(image).toMatchObject({ status: 'available', width: 2220, height: 2967, magnification: 20 });
    expect(image.format).toBe('aperio');
    expect(image.resolutionUnit).toBe('dpc');
    expect(image.resolutionX).toBeCloseTo(10_000 / 0.499, 0);
    const layers = await database.db.select().from(imageLayers).where(eq(imageLayers.imageId, imageId));
    expect(layers).toHaveLength(1);
    expect(layers[0]).toMatchObject({ layerNumber: 0, width: 2220, height: 2967, tileSize: 512 });
    expect(await deps.blobs.exists(layers[0]!.pyramidKey)).toBe(true);
    expect(await deps.blobs.exists(image.thumbnailKey!)).toBe(true);
    const associated = await database.db.select().from(imageAssociated).where(eq(imageAssociated.imageId, imageId));
    expect(associated.map((row) => row.kind).sort()).toEqual(expect.arrayContaining(['label', 'macro']));
    const [group] = await database.db.select().from(organizations).where(eq(organizations.id, organizationId));
    expect(group!.usedPyramidalBytes).toBe(layers[0]!.pyramidalSize);
  });

  it('makes one layer per focal plane of an OME z-stack', async () => {
    const { imageId } = await uploaded(slidePath('multi-channel-z-series.ome.tif'));
    await convertImageJob(deps, { imageId, retryCount: 0, retryLimit: 2 });
    expect(await imageRow(imageId)).toMatchObject({ status: 'available', width: 439, height: 167 });
    const layers = await database.db.select().from(imageLayers).where(eq(imageLayers.imageId, imageId));
    expect(layers.map((layer) => layer.metadata?.the_z).sort()).toEqual([0, 1, 2, 3, 4]);
  });

  it('fails with -100 on data it cannot read, and keeps the original', async () => {
    const { imageId } = await uploaded(Buffer.concat([Buffer.from('II*\0'), Buffer.alloc(2000, 7)]));
    await convertImageJob(deps, { imageId, retryCount: 0, retryLimit: 2 });
    const image = await imageRow(imageId);
    expect(image).toMatchObject({ status: 'process_failed', processErrorCode: -100 });
    expect(image.processErrorMessage).not.toBe('');
    expect(await storedKeys(imageId)).toEqual([imageBlobKeys.original(imageId)]);
  });

  it('lets pg-boss retry a transient failure and records -101 only on the last attempt', async () => {
    const { imageId } = await uploaded(slidePath('smalltif-16bit.tif'));
    await deps.blobs.delete(imageBlobKeys.original(imageId));
    await expect(convertImageJob(deps, { imageId, retryCount: 0, retryLimit: 2 })).rejects.toThrow();
    expect((await imageRow(imageId)).status).toBe('processing');
    await expect(convertImageJob(deps, { imageId, retryCount: 2, retryLimit: 2 })).rejects.toThrow();
    expect(await imageRow(imageId)).toMatchObject({ status: 'process_failed', processErrorCode: -101 });
  });

  it('replaces the pyramid on reprocess, deletes the old blobs and counts the bytes once', async () => {
    // An Aperio file twice in one worker: the second reading must not reuse the first one's decoder.
    const { imageId, organizationId } = await uploaded(slidePath('CMU-1-Small-Region.svs'));
    await convertImageJob(deps, { imageId, retryCount: 0, retryLimit: 2 });
    const before = await storedKeys(imageId);
    const [oldLayer] = await database.db.select().from(imageLayers).where(eq(imageLayers.imageId, imageId));
    const [drawing] = await database.db
      .insert(drawings)
      .values({
        imageId,
        imageLayerId: oldLayer!.id,
        shapeType: 'rectangle',
        geometry: { type: 'Polygon', coordinates: [] },
      })
      .returning();
    await database.db.update(images).set({ status: 'uploaded' }).where(eq(images.id, imageId));
    await convertImageJob(deps, { imageId, retryCount: 0, retryLimit: 2 });

    const after = await storedKeys(imageId);
    expect(after).toHaveLength(before.length);
    expect(after.filter((key) => before.includes(key))).toEqual([imageBlobKeys.original(imageId)]);
    const layers = await database.db.select().from(imageLayers).where(eq(imageLayers.imageId, imageId));
    const [group] = await database.db.select().from(organizations).where(eq(organizations.id, organizationId));
    expect(group!.usedPyramidalBytes).toBe(layers[0]!.pyramidalSize);
    // A new layer (its tiles get a new URL), and what was drawn on the old one moved to it.
    expect(layers.map((layer) => layer.id)).not.toContain(oldLayer!.id);
    const kept = await database.db.select().from(drawings).where(eq(drawings.id, drawing!.id));
    expect(kept.map((row) => row.imageLayerId)).toEqual([layers[0]!.id]);
  });

  it('never marks a killed conversion available; the retried job finishes it, gives it to the image sharing its original and sweeps the leftovers', async () => {
    const { imageId, organizationId } = await uploaded(slidePath('CMU-1-Small-Region.svs'));
    // Waits for this conversion as the demo's other slides do: it must be neither touched by the killed attempt nor left behind.
    const sharing = await f.image(await f.case({ ownerOrganizationId: organizationId }), {
      status: 'uploaded',
      originalKey: (await imageRow(imageId)).originalKey,
    });
    const queue = new JobQueue<ConvertQueue>({
      connectionString: database.url,
      policies: CONVERT_CRASH_POLICIES,
      lease: CRASH_LEASE,
    });
    await queue.start();
    try {
      const worker = spawn(process.execPath, ['--import', 'tsx', killedConverter], {
        env: {
          ...process.env,
          DATABASE_URL: database.url,
          BLOB_ROOT: path.join(root, 'blobs'),
          SCRATCH_DIR: deps.scratchDir,
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      const jobId = await queue.send('convert', { imageId });
      for await (const line of readline.createInterface({ input: worker.stdout })) {
        if (line === 'stored a pyramid') break;
      }
      await exited;
      expect((await imageRow(imageId)).status).toBe('processing');
      expect((await imageRow(sharing)).status).toBe('uploaded');
      const leftovers = await storedKeys(imageId);
      expect(leftovers.some((key) => key.endsWith('.tif'))).toBe(true);

      await queue.work(
        {
          convert: ({ imageId: id }, job) =>
            convertImageJob(deps, { imageId: id, retryCount: job.retryCount, retryLimit: 2 }),
        },
        1,
      );
      await vi.waitFor(async () => expect((await queue.getJob('convert', jobId))?.state).toBe('completed'), {
        timeout: 45_000,
        interval: 250,
      });
      expect((await queue.getJob('convert', jobId))?.retryCount).toBe(1);
      expect((await imageRow(imageId)).status).toBe('available');
      const layers = await database.db.select().from(imageLayers).where(eq(imageLayers.imageId, imageId));
      const kept = await storedKeys(imageId);
      expect(kept).toContain(layers[0]!.pyramidKey);
      expect(kept.filter((key) => key.endsWith('.tif'))).toEqual([layers[0]!.pyramidKey]);
      expect((await imageRow(sharing)).status).toBe('available');
      const shared = await database.db.select().from(imageLayers).where(eq(imageLayers.imageId, sharing));
      expect(shared.map((layer) => layer.pyramidKey)).toEqual([layers[0]!.pyramidKey]);
    } finally {
      await queue.stop();
    }
  }, 90_000);
});
