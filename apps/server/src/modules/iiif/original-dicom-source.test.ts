import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '#test/free-port.ts';
import { SMALL_SVS } from '#test/uploads.ts';
import { dicomizerSlide, zipFiles } from '../../imaging/dicom-read.test-support.ts';
import { createS3Client } from '../../storage/s3-client.ts';
import { S3BlobStore } from '../../storage/s3-blob-store.ts';
import { parseImageRequest } from './iiif-params.ts';
import { createDicomOriginals } from './original-dicom-source.ts';
import { pyramidLevels } from './original-plan.ts';
import { createTileCache } from './tile-cache.ts';

describe('DICOM originals kept open for serving', () => {
  let dir: string;
  let server: S3rver;
  let blobs: S3BlobStore;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'dicom-originals-'));
    const port = await freePort();
    server = new S3rver({ address: '127.0.0.1', port, silent: true, directory: path.join(dir, 's3') });
    await server.run();
    const client = createS3Client({
      endpoint: `http://127.0.0.1:${port}`,
      forcePathStyle: true,
      region: 'us-east-1',
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    await client.send(new CreateBucketCommand({ Bucket: 'slides' }));
    blobs = new S3BlobStore({ client, bucket: 'slides' });
  });
  afterAll(async () => {
    blobs.close();
    await server.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('serves a zip from a store without local files, and removes what it extracted when closed or left behind by a process gone', async () => {
    const cacheDir = path.join(dir, 'cache');
    const dicomDir = path.join(cacheDir, 'dicom');
    // A process gone, and a process that had this one's id before a restart, left their extractions; pid 1 lives.
    for (const name of ['999999999-gone', `${process.pid}-before-restart`, '1-alive']) {
      await fs.mkdir(path.join(dicomDir, name), { recursive: true });
    }
    const files = await dicomizerSlide({ tileSize: 256, compression: 'jpeg', pyramid: true });
    await blobs.put('originals/dicom', createReadStream(await zipFiles(path.join(dir, 'slide.zip'), files)));
    await blobs.put('originals/svs', createReadStream(SMALL_SVS));
    const dicoms = createDicomOriginals({ blobs, cacheDir, maxOpen: 2 });

    expect(await dicoms.open('originals/svs')).toBeNull();
    const opened = await dicoms.open('originals/dicom');
    const served = opened!.served!;
    expect(served.levels).toEqual(pyramidLevels(2220, 2967));
    const full = served.levels[0]!;
    const parts = { region: '512,512,512,512', size: '512,', rotation: '0', qualityFormat: 'default.jpg' };
    const tile = await served.render(parseImageRequest(parts, full), createTileCache(0));
    expect(await sharp(tile.body).metadata()).toMatchObject({ format: 'jpeg', width: 512, height: 512 });

    const left = (await fs.readdir(dicomDir)).sort();
    expect(left.filter((name) => !name.startsWith(`${process.pid}-`) || name.endsWith('before-restart'))).toEqual([
      '1-alive',
    ]);
    expect(left).toHaveLength(2);
    await dicoms.closeAll();
    expect(await fs.readdir(dicomDir)).toEqual(['1-alive']);
  }, 120_000);
});
