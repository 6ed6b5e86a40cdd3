import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Image } from '@pathology/contract';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { factories } from './factories.ts';
import { freePort } from './free-port.ts';
import { tokenForProcess } from './process-token.ts';
import { startServerProcess, waitForHealthy } from './server-process.ts';
import { queryOnce } from './sql.ts';
import { createTestDatabase } from './test-database.ts';
import { SMALL_SVS } from './uploads.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** Level 1 of the 2220 × 2967 slide, as OpenSeadragon asks for it. */
const TILE = '1024,0,1024,1024/512,';

describe('a worker killed while it converts a slide that is viewable from its original', () => {
  it('keeps the slide viewable (tiles served from the original) until another worker has taken the job back and swapped the pyramid in', async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.close());
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'pathology-killed-worker-'));
    cleanups.push(() => fs.rm(dataDir, { recursive: true, force: true }));
    const port = await freePort();
    const baseUrl = `http://localhost:${port}`;
    // One DATA_DIR (the blob store) for all, as one machine; a lapsed lease is noticed within seconds.
    const env = { DATABASE_URL: database.url, DATA_DIR: dataDir, JOB_LEASE_SECONDS: '6', WORKER_CONCURRENCY: '1' };

    const api = startServerProcess({ ...env, PORT: String(port) }, ['--role', 'api']);
    cleanups.push(() => api.stop());
    await waitForHealthy(baseUrl, api);
    const make = factories(database.db);
    const group = await make.organization();
    const caseId = await make.case({ ownerOrganizationId: group });
    const member = await make.account();
    await make.join(member, group, 'member');
    const headers = { authorization: `Bearer ${await tokenForProcess(database.url, baseUrl, member.email)}` };
    const get = (url: string) => fetch(`${baseUrl}${url}`, { headers });

    // The first worker holds its finished pyramid until released (CONVERT_HOLD), which never comes: surely busy when
    // killed.
    const holdDir = await fs.mkdtemp(path.join(os.tmpdir(), 'pathology-killed-worker-hold-'));
    cleanups.push(() => fs.rm(holdDir, { recursive: true, force: true }));
    const first = startServerProcess({ ...env, PORT: String(await freePort()), CONVERT_HOLD: holdDir }, [
      '--role',
      'worker',
    ]);
    cleanups.push(() => first.stop());

    const query = new URLSearchParams({ caseId, filename: 'killed.svs' });
    const uploaded = await fetch(`${baseUrl}/api/v1/images?${query.toString()}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/octet-stream' },
      body: await fs.readFile(SMALL_SVS),
    });
    expect(uploaded.status).toBe(201);
    const imageId = ((await uploaded.json()) as Image).id;
    const image = async () => (await (await get(`/api/v1/images/${imageId}`)).json()) as Image;
    const layerId = (await image()).tileSource!.url.split('/')[3]!;
    const tileUrl = `/iiif/2/${layerId}/${TILE}/0/default.jpg`;
    const info = await (await get(`/iiif/2/${layerId}/info.json`)).json();

    // Killed as the out-of-memory killer would, once its conversion runs.
    await vi.waitFor(async () => expect(await image()).toMatchObject({ status: 'processing', viewable: true }), {
      timeout: 60_000,
      interval: 100,
    });
    first.child.kill('SIGKILL');
    await first.exited;

    // A second worker takes the job back once its lease lapses; until the pyramid is in, the original serves.
    const second = startServerProcess({ ...env, PORT: String(await freePort()) }, ['--role', 'worker']);
    cleanups.push(() => second.stop());
    const duringGap: { status: number; cacheControl: string | null; imageStatus: string; viewable: boolean }[] = [];
    await vi.waitFor(
      async () => {
        const shown = await image();
        const tile = await get(tileUrl);
        await tile.arrayBuffer();
        duringGap.push({
          status: tile.status,
          cacheControl: tile.headers.get('cache-control'),
          imageStatus: shown.status,
          viewable: shown.viewable,
        });
        expect(shown.status).toBe('available');
      },
      { timeout: 120_000, interval: 250 },
    );
    const beforeHandOver = duringGap.filter((sample) => sample.imageStatus !== 'available');
    // The gap lasts at least the lease (6 s): many samples, every one a tile from the original of a viewable slide.
    expect(beforeHandOver.length).toBeGreaterThan(10);
    expect(beforeHandOver.every((sample) => sample.status === 200 && sample.viewable)).toBe(true);
    expect(beforeHandOver.every((sample) => sample.cacheControl === 'private, max-age=30')).toBe(true);
    expect(beforeHandOver.map((sample) => sample.imageStatus)).toContain('processing');

    const jobs = await queryOnce<{ state: string; retry_count: number }>(
      database.url,
      `SELECT state, retry_count FROM pgboss.job WHERE name = 'convert' AND data->>'imageId' = $1`,
      [imageId],
    );
    // One job, whose second attempt (the lapsed first one taken back) completed.
    expect(jobs).toEqual([{ state: 'completed', retry_count: 1 }]);
    expect((await image()).tileSource!.url).toContain(layerId);
    expect(await (await get(`/iiif/2/${layerId}/info.json`)).json()).toEqual(info);
    // The layer's access answer is remembered 2 s per process: then the pyramid's own caching shows.
    await vi.waitFor(async () => expect((await get(tileUrl)).headers.get('cache-control')).toMatch(/immutable/), {
      timeout: 5_000,
      interval: 250,
    });
    expect(await second.stop()).toBe(0);
  }, 300_000);
});
