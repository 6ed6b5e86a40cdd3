import { randomBytes, randomInt } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { images } from '../../db/schema/index.ts';
import { FilesystemBlobStore } from '../../storage/filesystem-blob-store.ts';
import { startTokenIssuer, type TokenIssuer } from '#test/token-issuer.ts';
import { factories } from '#test/factories.ts';
import { freePort } from '#test/free-port.ts';
import { startServerProcess, waitForHealthy, type ServerProcess } from '#test/server-process.ts';
import { createTestDatabase, type TestDatabase } from '#test/test-database.ts';
import { encodeMetadata, PATCH_TYPE, sha256, TUS } from '#test/uploads.ts';

const UPLOADS = 20;
const AUDIENCE = 'kill-test';
const PIECE = 16 * 1024;

/** A TIFF header and random bytes: what the content check accepts for .tif, and a different file each time. */
function slide(size: number): Buffer {
  const bytes = randomBytes(size);
  bytes.set([0x49, 0x49, 42, 0, 8, 0, 0, 0]);
  return bytes;
}

/**
 * Sends `body` from `offset` as one PATCH in small pieces with pauses (as a slow link does), and kill -9s the
 * server once `killAt` bytes of it are written; resolves when the connection is gone.
 */
async function patchUntilKilled(
  url: string,
  headers: Record<string, string>,
  body: Buffer,
  killAt: number,
  kill: () => void,
): Promise<void> {
  const request = http.request(url, {
    method: 'PATCH',
    headers: { ...TUS, ...PATCH_TYPE, ...headers, 'content-length': String(body.length) },
  });
  const gone = new Promise<void>((resolve) => request.once('close', () => resolve()));
  request.on('error', () => {});
  for (let sent = 0; sent < killAt; sent += PIECE) {
    await new Promise<void>((resolve) =>
      request.write(body.subarray(sent, Math.min(killAt, sent + PIECE)), () => resolve()),
    );
    await sleep(randomInt(0, 5));
  }
  await sleep(randomInt(0, 50));
  kill();
  await gone;
}

/**
 * Nothing lost (issue 30.6): the api process is killed with SIGKILL at a random byte of each of 20 resumable
 * uploads; each resumes from the offset HEAD gives after the restart and stores exactly the source's bytes, and
 * afterwards no partial upload, stray blob or row is left.
 */
describe('tus uploads when the server is killed at random points', () => {
  let database: TestDatabase;
  let issuer: TokenIssuer;
  let dataDir: string;
  let server: ServerProcess | undefined;
  let base: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    database = await createTestDatabase();
    issuer = await startTokenIssuer();
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'pathology-kill-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    env = {
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      OIDC_ISSUER: issuer.issuer,
      OIDC_CLIENT_ID: AUDIENCE,
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
    };
  });

  afterAll(async () => {
    await server?.stop();
    await issuer?.close();
    await database?.close();
    if (dataDir != null) await fs.rm(dataDir, { recursive: true, force: true });
  });

  async function start(): Promise<void> {
    server = startServerProcess(env, ['--role', 'api']);
    await waitForHealthy(base, server);
  }

  it('resumes every upload after kill -9 and leaves exactly the finished files', async () => {
    await start();
    const make = factories(database.db);
    const group = await make.organization();
    const caseId = await make.case({ ownerOrganizationId: group });
    await make.join(await make.account({ subject: 'member' }), group, 'member');
    const auth = { authorization: `Bearer ${await issuer.token('member', AUDIENCE)}` };
    const call = (url: string, method: string, headers: Record<string, string> = {}, body?: Buffer) =>
      fetch(url, { method, headers: { ...TUS, ...auth, ...headers }, body });

    const sources = new Map<string, Buffer>();
    for (let index = 0; index < UPLOADS; index += 1) {
      const bytes = slide(randomInt(256 * 1024, 2 * 1024 * 1024));
      const created = await call(`${base}/api/v1/uploads/images`, 'POST', {
        'upload-length': String(bytes.length),
        'upload-metadata': encodeMetadata({ caseId, filename: `killed-${index}.tif` }),
      });
      expect(created.status).toBe(201);
      const url = new URL(created.headers.get('location')!, base).href;
      // Some uploads get a first part through before the kill, so the kill lands on a resumed one.
      let offset = 0;
      if (index % 3 === 0) {
        offset = randomInt(1, bytes.length - 1);
        const first = await call(url, 'PATCH', { ...PATCH_TYPE, 'upload-offset': '0' }, bytes.subarray(0, offset));
        expect(first.status).toBe(204);
      }
      const rest = bytes.subarray(offset);
      const running = server!;
      await patchUntilKilled(url, { ...auth, 'upload-offset': String(offset) }, rest, randomInt(0, rest.length), () =>
        running.child.kill('SIGKILL'),
      );
      await running.exited;
      await start();

      const head = await call(url, 'HEAD');
      expect(head.status).toBe(200);
      const resumed = Number(head.headers.get('upload-offset'));
      expect(resumed).toBeGreaterThanOrEqual(offset);
      expect(resumed).toBeLessThan(bytes.length);
      const done = await call(
        url,
        'PATCH',
        { ...PATCH_TYPE, 'upload-offset': String(resumed) },
        bytes.subarray(resumed),
      );
      expect(done.status).toBe(200);
      const { id } = (await done.json()) as { id: string };
      sources.set(id, bytes);
    }

    const rows = await database.db.select({ id: images.id, key: images.originalKey, size: images.size }).from(images);
    expect(rows.map((row) => row.id).sort()).toEqual([...sources.keys()].sort());
    const blobs = new FilesystemBlobStore(path.join(dataDir, 'blobs'));
    for (const row of rows) {
      const source = sources.get(row.id)!;
      expect(row.size).toBe(source.length);
      expect(sha256(Buffer.concat(await (await blobs.get(row.key!)).toArray()))).toBe(sha256(source));
    }
    // Nothing else in the store, and no partial upload or info file left in the staging folder.
    const keys: string[] = [];
    for await (const key of blobs.list('images/')) keys.push(key);
    expect(keys.sort()).toEqual(rows.map((row) => row.key).sort());
    const staging = await fs.readdir(blobs.stagingFolder(), { recursive: true });
    expect(staging.filter((entry) => entry !== 'tus')).toEqual([]);
  }, 600_000);
});
