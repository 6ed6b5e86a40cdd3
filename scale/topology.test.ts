import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as tus from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashPassword } from '../apps/server/src/auth/password.ts';
import { createDatabase, type Database } from '../apps/server/src/db/client.ts';
import { factories } from '../apps/server/test/factories.ts';
import { slidePath } from '../apps/server/test/testdata.ts';
import { signIn } from './sign-in.ts';
import { NGINX_FAIL_SECONDS, startTopology, type AppProcess, type Topology } from './topology.ts';

const EMAIL = 'scale@example.test';
const PASSWORD = 'scale test password';
/** nginx skips a failed API for this long (fail_timeout): no run of 5xx answers may last longer. */
const HEALTH_INTERVAL_MS = NGINX_FAIL_SECONDS * 1000;

/** Asks nginx for readiness every 100 ms and keeps the longest run of 5xx answers. */
function probe(url: string) {
  let longest = 0;
  let since: number | null = null;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const status = (await fetch(`${url}/api/v1/health/ready`).catch(() => null))?.status ?? 599;
      const now = Date.now();
      if (status >= 500) since ??= now;
      else since = null;
      if (since != null) longest = Math.max(longest, now - since);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  return {
    longest5xxMs: () => longest,
    stop: async () => {
      stopped = true;
      await loop;
    },
  };
}

function kill(process: AppProcess): Promise<unknown> {
  process.server.child.kill('SIGKILL');
  return process.server.exited;
}

describe('several API and worker processes on one PostgreSQL, S3 and nginx', () => {
  let topology: Topology;
  let database: Database;
  let caseId: string;
  let token: string;
  let prober: ReturnType<typeof probe>;

  beforeAll(async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'pathology-scale-'));
    await fs.chmod(root, 0o755);
    topology = await startTopology(root, { apis: 2, workers: 2, env: { WORKER_CONCURRENCY: '1' } });
    database = createDatabase(topology.databaseUrl, { max: 2 });
    const make = factories(database.db);
    const group = await make.organization({ predictionEnabled: true });
    const person = await make.account({ email: EMAIL, firstName: 'Scale', lastName: 'Test' });
    await database.pool.query('UPDATE accounts SET password_hash = $2, email_verified = true WHERE id = $1', [
      person.accountId,
      await hashPassword(PASSWORD),
    ]);
    await make.join(person, group, 'member');
    caseId = await make.case({ ownerOrganizationId: group });
    prober = probe(topology.url);
  });
  afterAll(async () => {
    await prober?.stop();
    await database?.close();
    await topology?.stop();
  });

  const api = async (method: string, url: string, body?: unknown) => {
    const response = await fetch(`${topology.url}/api/v1${url}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body == null ? {} : { 'content-type': 'application/json' }) },
      body: body == null ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json().catch(() => null)) as Record<string, unknown> };
  };
  const imageStatus = async (imageId: string) => (await api('GET', `/images/${imageId}`)).body?.status;

  it('signs in through nginx, the steps of one sign-in landing on both API processes', async () => {
    // Round-robin spreads a sign-in's steps over both processes; the readiness probe in between shifts the turns.
    const spread: number[] = [];
    for (let i = 0; i < 4; i++) {
      const signedIn = await signIn(topology.url, EMAIL, PASSWORD);
      token = signedIn.token;
      spread.push(new Set(signedIn.upstreams).size);
    }
    expect(Math.max(...spread)).toBe(2);
    expect((await api('GET', '/accounts/me')).status).toBe(200);
  });

  it('uploads a slide by tus through nginx while one API is killed -9: the upload resumes through the other and converts', async () => {
    const slide = await fs.readFile(slidePath('CMU-1-Small-Region.svs'));
    let created = 0;
    let killed: Promise<unknown> | undefined;
    const body = await new Promise<string>((resolve, reject) => {
      const upload = new tus.Upload(slide, {
        endpoint: `${topology.url}/api/v1/uploads/images`,
        chunkSize: 128 * 1024,
        retryDelays: [0, 500, 1000, 2000, 4000],
        headers: { authorization: `Bearer ${token}` },
        metadata: { caseId, filename: 'resumed.svs' },
        onAfterResponse: (request) => void (request.getMethod() === 'POST' && created++),
        onProgress: (sent, total) => {
          if (killed == null && sent > total * 0.3) killed = kill(topology.apis[0]!);
        },
        onSuccess: ({ lastResponse }) => resolve(lastResponse.getBody()),
        onError: reject,
      });
      upload.start();
    });
    await killed;
    expect(killed).toBeDefined();
    // Resumed, not started again: one upload created.
    expect(created).toBe(1);
    const { id } = JSON.parse(body) as { id: string };
    await vi.waitFor(async () => expect(await imageStatus(id)).toBe('available'), { timeout: 120_000, interval: 500 });
  });

  it('converts a slide while the worker converting it is killed -9: the other takes the job back; tiles read, a prediction runs', async () => {
    const query = new URLSearchParams({ caseId, filename: 'converted.svs' });
    const uploaded = await fetch(`${topology.url}/api/v1/images?${query.toString()}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
      body: await fs.readFile(slidePath('CMU-1-Small-Region.svs')),
    });
    expect(uploaded.status).toBe(201);
    const { id: imageId } = (await uploaded.json()) as { id: string };

    // The worker converting works in its own DATA_DIR/tmp: that is the one to kill.
    let converting: AppProcess | undefined;
    await vi.waitFor(
      async () => {
        for (const worker of topology.workers) {
          const scratch = await fs.readdir(path.join(worker.dataDir, 'tmp')).catch(() => [] as string[]);
          if (scratch.some((entry) => entry.includes(imageId))) converting = worker;
        }
        expect(converting).toBeDefined();
      },
      { timeout: 60_000, interval: 25 },
    );
    await kill(converting!);
    expect(await imageStatus(imageId)).toBe('processing');

    await vi.waitFor(async () => expect(await imageStatus(imageId)).toBe('available'), {
      timeout: 120_000,
      interval: 500,
    });
    // The image is available once the conversion commits; pg-boss marks the job completed just after.
    await vi.waitFor(
      async () => {
        const { rows } = await database.pool.query(
          `SELECT state, retry_count FROM pgboss.job WHERE name = 'convert' AND data->>'imageId' = $1`,
          [imageId],
        );
        expect(rows).toEqual([{ state: 'completed', retry_count: 1 }]);
      },
      { timeout: 10_000, interval: 100 },
    );

    const image = (await api('GET', `/images/${imageId}`)).body as { imageLayerResources: { id: string }[] };
    const layerId = image.imageLayerResources[0]!.id;
    const auth = { authorization: `Bearer ${token}` };
    expect((await fetch(`${topology.url}/iiif/2/${layerId}/info.json`, { headers: auth })).status).toBe(200);
    const tile = await fetch(`${topology.url}/iiif/2/${layerId}/0,0,512,512/512,/0/default.jpg`, { headers: auth });
    expect(tile.status).toBe(200);
    expect(tile.headers.get('content-type')).toBe('image/jpeg');

    const requested = await api('POST', '/predictions/request', { imageLayerId: layerId, modelName: 'others' });
    expect(requested.status).toBe(201);
    await vi.waitFor(
      async () => expect((await api('GET', `/predictions/${String(requested.body.id)}`)).body.status).toBe('completed'),
      { timeout: 120_000, interval: 500 },
    );
  });

  it('lost nothing and left nothing stuck; no run of 5xx outlasted the health check interval', async () => {
    const { rows } = await database.pool.query(
      `SELECT name, state FROM pgboss.job WHERE name IN ('convert', 'predict') AND state NOT IN ('completed')`,
    );
    expect(rows).toEqual([]);
    const { rows: statuses } = await database.pool.query(`SELECT status FROM images`);
    expect(statuses.every((row: { status: string }) => row.status === 'available')).toBe(true);
    expect(prober.longest5xxMs()).toBeLessThanOrEqual(HEALTH_INTERVAL_MS);
  });
});
