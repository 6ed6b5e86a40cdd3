import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { IMAGE_MESSAGES, UPLOAD_IMAGE_ID_HEADER } from '@pathology/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { images } from '../../db/schema/index.ts';
import { createS3Client } from '../../storage/s3-client.ts';
import { S3BlobStore } from '../../storage/s3-blob-store.ts';
import { factories } from '#test/factories.ts';
import { freePort } from '#test/free-port.ts';
import { S3_CREDENTIALS, startS3Server, type S3Server } from '#test/s3-server.ts';
import { startServerProcess, waitForHealthy, type ServerProcess } from '#test/server-process.ts';
import { createTestDatabase, type TestDatabase } from '#test/test-database.ts';
import { startTokenIssuer, type TokenIssuer } from '#test/token-issuer.ts';
import { PATCH_TYPE, sha256, SMALL_SVS, TUS, tusPeers } from '#test/uploads.ts';

const AUDIENCE = 'tus-s3-test';
const MiB = 1024 * 1024;
const PREFIX = 'pathology';

/** A TIFF header and random bytes: what the content check accepts for .tif (not a slide that converts). */
function tiff(size: number): Buffer {
  const bytes = randomBytes(size);
  bytes.set([0x49, 0x49, 42, 0, 8, 0, 0, 0]);
  return bytes;
}

/** Every file under `folder` with its size, e.g. to show that no upload's bytes were kept there. */
async function filesIn(folder: string): Promise<{ name: string; size: number }[]> {
  const entries = await fs.readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  const files = await Promise.all(
    entries
      .filter((entry) => entry.isFile())
      .map(async (entry) => {
        const file = path.join(entry.parentPath, entry.name);
        const stat = await fs.stat(file).catch(() => null);
        return stat == null ? [] : [{ name: path.relative(folder, file), size: stat.size }];
      }),
  );
  return files.flat();
}

/**
 * Two API processes on S3 storage, as two machines behind a load balancer: separate data folders (and OS temporary
 * folders), one database, one bucket. A resumable upload's parts live in the bucket, so its PATCHes may reach either
 * process, a process killed mid-PATCH loses nothing the bucket holds, and the file is completed at the image's key.
 */
describe('tus uploads/images on S3 storage across two API processes', () => {
  let database: TestDatabase;
  let issuer: TokenIssuer;
  let s3: S3Server;
  let root: string;
  let bucket: S3BlobStore;
  const servers: (ServerProcess | undefined)[] = [];
  const bases: string[] = [];
  const envs: Record<string, string>[] = [];
  let caseId: string;
  let auth: { authorization: string };

  async function start(at: number): Promise<void> {
    // The first also converts (api and worker), the second only answers HTTP.
    const server = startServerProcess(envs[at]!, ['--role', at === 0 ? 'all' : 'api']);
    servers[at] = server;
    await waitForHealthy(bases[at]!, server);
  }

  beforeAll(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'pathology-tus-s3-'));
    [database, issuer, s3] = await Promise.all([
      createTestDatabase(),
      startTokenIssuer(),
      startS3Server(path.join(root, 's3'), ['slides']),
    ]);
    bucket = new S3BlobStore({
      client: createS3Client({ endpoint: s3.endpoint, forcePathStyle: true, credentials: S3_CREDENTIALS }),
      bucket: 'slides',
      prefix: PREFIX,
    });
    for (const at of [0, 1]) {
      const port = await freePort();
      bases[at] = `http://127.0.0.1:${port}`;
      const dataDir = path.join(root, `data-${at}`);
      const tmpDir = path.join(root, `os-tmp-${at}`);
      await fs.mkdir(tmpDir, { recursive: true });
      envs[at] = {
        ...s3.env('slides', PREFIX),
        DATABASE_URL: database.url,
        DATA_DIR: dataDir,
        TMPDIR: tmpDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        OIDC_ISSUER: issuer.issuer,
        OIDC_CLIENT_ID: AUDIENCE,
        LOG_LEVEL: 'warn',
        SEED_DEMO: 'false',
      };
    }
    await start(0);
    await start(1);
    const make = factories(database.db);
    const group = await make.organization();
    caseId = await make.case({ ownerOrganizationId: group });
    await make.join(await make.account({ subject: 'member' }), group, 'member');
    auth = { authorization: `Bearer ${await issuer.token('member', AUDIENCE)}` };
  }, 300_000);

  afterAll(async () => {
    for (const server of servers) await server?.stop();
    bucket?.close();
    await s3?.stop();
    await issuer?.close();
    await database?.close();
    if (root != null) await fs.rm(root, { recursive: true, force: true });
  });

  const { on, call, create, offsetOn } = tusPeers({ bases: () => bases, auth: () => auth, caseId: () => caseId });

  /** Sends `bytes` from the upload's current offset in PATCHes of `chunk`, alternately to each server. */
  async function sendAlternately(location: string, bytes: Buffer, chunk: number, from = 0): Promise<Response> {
    let last: Response | undefined;
    for (let offset = from, turn = 0; offset < bytes.length; offset += chunk, turn += 1) {
      expect(await offsetOn(turn % 2, location)).toBe(offset);
      last = await call(
        on(turn % 2, location),
        'PATCH',
        { ...PATCH_TYPE, 'upload-offset': String(offset) },
        bytes.subarray(offset, offset + chunk),
      );
      expect(last.status).toBe(offset + chunk >= bytes.length ? 200 : 204);
    }
    return last!;
  }

  async function storedBytes(imageId: string): Promise<Buffer> {
    const [row] = await database.db.select().from(images).where(eq(images.id, imageId));
    expect(row).toMatchObject({ status: expect.any(String), size: expect.any(Number) });
    return Buffer.concat(await (await bucket.get(row!.originalKey!)).toArray());
  }

  /** What uploads in progress keep in the bucket besides their parts (info, trailing part): outside the blob keys. */
  async function tusObjects(): Promise<string[]> {
    const listed = await bucket.client.listObjectsV2({ Bucket: 'slides', Prefix: `${PREFIX}/~tus/` });
    return (listed.Contents ?? []).map((object) => object.Key ?? '');
  }

  it('takes the PATCHes of one upload alternately on each process, and the slide converts', async () => {
    const svs = await fs.readFile(SMALL_SVS);
    const location = await create('alternating.svs', svs.length);
    // The upload's id in its URL is the image's: the file is completed at the image's key, never copied.
    const imageId = location.split('/').pop()!;
    const done = await sendAlternately(location, svs, Math.ceil(svs.length / 5));
    expect(await done.json()).toEqual({ id: imageId, filename: 'alternating.svs' });
    expect(sha256(await storedBytes(imageId))).toBe(sha256(svs));
    await vi.waitFor(
      async () => {
        const [row] = await database.db.select().from(images).where(eq(images.id, imageId));
        expect(row?.status).toBe('available');
      },
      { timeout: 120_000, interval: 500 },
    );
    // The upload went from the bucket, and left no bytes in either process's data or temporary folder.
    await vi.waitFor(async () => expect(await tusObjects()).toEqual([]), { timeout: 10_000 });
    for (const at of [0, 1]) {
      // tsx keeps its compiled modules there too.
      const temporary = await filesIn(path.join(root, `os-tmp-${at}`));
      expect(temporary.filter((file) => !file.name.startsWith('tsx-') && file.size > 0)).toEqual([]);
    }
    // The api-only process (the other one converts, from a scratch copy of the original).
    expect((await filesIn(envs[1]!.DATA_DIR!)).filter((file) => file.size > 64 * 1024)).toEqual([]);
  }, 180_000);

  it('stores a file of several S3 parts sent alternately in PATCHes that do not fall on part boundaries', async () => {
    const bytes = tiff(23 * MiB + 12_345);
    const location = await create('parts.tif', bytes.length);
    const done = await sendAlternately(location, bytes, 7 * MiB);
    const { id } = (await done.json()) as { id: string };
    expect(sha256(await storedBytes(id))).toBe(sha256(bytes));
  }, 120_000);

  it('refuses with 423 a PATCH on one process while the other writes the upload, and the file stays intact', async () => {
    const bytes = tiff(9 * MiB);
    const location = await create('contended.tif', bytes.length);
    const half = 6 * MiB;
    const slow = http.request(on(0, location), {
      method: 'PATCH',
      headers: { ...TUS, ...PATCH_TYPE, ...auth, 'upload-offset': '0', 'content-length': String(half) },
    });
    const slowAnswer = new Promise<number>((resolve, reject) => {
      slow.once('response', (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      slow.once('error', reject);
    });
    await new Promise<void>((resolve) => slow.write(bytes.subarray(0, 4096), () => resolve()));
    await sleep(500);

    const rival = await call(
      on(1, location),
      'PATCH',
      { ...PATCH_TYPE, 'upload-offset': '0' },
      bytes.subarray(0, half),
    );
    expect(rival.status).toBe(423);
    expect(await rival.json()).toEqual({ message: IMAGE_MESSAGES.uploadBusy });

    slow.end(bytes.subarray(4096, half));
    expect(await slowAnswer).toBe(204);
    expect(await offsetOn(1, location)).toBe(half);
    const done = await sendAlternately(location, bytes, bytes.length - half, half);
    const { id } = (await done.json()) as { id: string };
    expect(sha256(await storedBytes(id))).toBe(sha256(bytes));
  }, 120_000);

  /**
   * Puts the bucket where a process killed between completing an upload and recording its image leaves it: every
   * byte completed at the image's key by the S3 calls the store makes on the last byte, the upload's info kept.
   */
  async function completeBehindTheServer(imageId: string, bytes: Buffer): Promise<void> {
    const info = await bucket.client.headObject({ Bucket: 'slides', Key: `${PREFIX}/~tus/${imageId}.info` });
    const target = {
      Bucket: 'slides',
      Key: `${PREFIX}/images/${imageId}/original`,
      UploadId: info.Metadata?.['upload-id'],
    };
    const part = await bucket.client.uploadPart({ ...target, PartNumber: 1, Body: bytes });
    await bucket.client.completeMultipartUpload({
      ...target,
      MultipartUpload: { Parts: [{ PartNumber: 1, ETag: part.ETag }] },
    });
  }

  it('records at the next HEAD an upload whose process died after completing it in the bucket', async () => {
    const bytes = tiff(3 * MiB);
    const location = await create('completed-unrecorded.tif', bytes.length);
    const imageId = location.split('/').pop()!;
    await completeBehindTheServer(imageId, bytes);
    expect(await database.db.select().from(images).where(eq(images.id, imageId))).toEqual([]);

    // Whole, yet no image: a HEAD saying only that would leave the client believing in an image that is not there.
    // Asked of both processes at once, it is recorded once, and its original kept.
    const heads = await Promise.all([call(on(1, location), 'HEAD'), call(on(0, location), 'HEAD')]);
    const named = heads.filter((head) => head.headers.get(UPLOAD_IMAGE_ID_HEADER) === imageId);
    expect(named.length).toBeGreaterThan(0);
    for (const head of named) {
      expect(head.status).toBe(200);
      expect(Number(head.headers.get('upload-offset'))).toBe(bytes.length);
    }
    for (const head of heads) expect([200, 404, 423]).toContain(head.status);
    expect(sha256(await storedBytes(imageId))).toBe(sha256(bytes));
    // As after a last PATCH, the upload goes once its answer is written.
    await vi.waitFor(async () => expect(await tusObjects()).toEqual([]), { timeout: 10_000 });
    expect((await call(on(0, location), 'HEAD')).status).toBe(404);
  }, 60_000);

  it('refuses at the next HEAD such an upload whose bytes are no image, and leaves none of it in the bucket', async () => {
    const bytes = randomBytes(MiB);
    const location = await create('not-a-tiff.tif', bytes.length);
    const imageId = location.split('/').pop()!;
    await completeBehindTheServer(imageId, bytes);

    const head = await call(on(0, location), 'HEAD');
    expect(head.status).toBe(415);
    expect(await database.db.select().from(images).where(eq(images.id, imageId))).toEqual([]);
    expect(await bucket.stat(`images/${imageId}/original`)).toBeNull();
    expect(await tusObjects()).toEqual([]);
    expect((await call(on(1, location), 'HEAD')).status).toBe(404);
  }, 60_000);

  it('resumes from the last byte the bucket holds after the process taking a PATCH is killed -9', async () => {
    const bytes = tiff(20 * MiB);
    const location = await create('killed.tif', bytes.length);
    const first = await call(
      on(1, location),
      'PATCH',
      { ...PATCH_TYPE, 'upload-offset': '0' },
      bytes.subarray(0, 3 * MiB),
    );
    expect(first.status).toBe(204);

    // The rest as one PATCH on process two, killed once 13 MiB more are sent (a part of 8 MiB has gone to S3).
    const request = http.request(on(1, location), {
      method: 'PATCH',
      headers: { ...TUS, ...PATCH_TYPE, ...auth, 'upload-offset': String(3 * MiB), 'content-length': String(17 * MiB) },
    });
    request.on('error', () => {});
    const gone = new Promise<void>((resolve) => request.once('close', () => resolve()));
    for (let sent = 3 * MiB; sent < 16 * MiB; sent += MiB) {
      await new Promise<void>((resolve) => request.write(bytes.subarray(sent, sent + MiB), () => resolve()));
      await sleep(20);
    }
    await sleep(1_000);
    servers[1]!.child.kill('SIGKILL');
    await servers[1]!.exited;
    await gone;

    // The other process sees what the bucket holds: at least the 3 MiB sent before, some of the killed PATCH.
    const resumed = await offsetOn(0, location);
    expect(resumed).toBeGreaterThan(3 * MiB);
    expect(resumed).toBeLessThan(bytes.length);
    const done = await call(
      on(0, location),
      'PATCH',
      { ...PATCH_TYPE, 'upload-offset': String(resumed) },
      bytes.subarray(resumed),
    );
    expect(done.status).toBe(200);
    const { id } = (await done.json()) as { id: string };
    expect(sha256(await storedBytes(id))).toBe(sha256(bytes));
    await vi.waitFor(async () => expect(await tusObjects()).toEqual([]), { timeout: 10_000 });
    await start(1);
  }, 180_000);
});
