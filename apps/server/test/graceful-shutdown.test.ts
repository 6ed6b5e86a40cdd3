import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { images } from '../src/db/schema/index.ts';
import { JobQueue } from '../src/jobs/job-queue.ts';
import { QUEUE_POLICIES, type QueuePayloads } from '../src/jobs/queues.ts';
import { imageBlobKeys } from '../src/modules/images/image-blobs.ts';
import { FilesystemBlobStore } from '../src/storage/filesystem-blob-store.ts';
import { factories } from './factories.ts';
import { freePort } from './free-port.ts';
import { startServerProcess } from './server-process.ts';
import { createTestDatabase } from './test-database.ts';
import { slidePath } from './testdata.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/**
 * A `vips` that answers the version checks as the real one and hangs in any conversion step,
 * noting its process id: a conversion that is surely still running when the worker is told to stop.
 */
async function hangingVips(dir: string, pidFile: string): Promise<string> {
  const bin = path.join(dir, 'bin');
  await fs.mkdir(bin);
  const realVips = '/usr/bin/vips';
  await fs.writeFile(
    path.join(bin, 'vips'),
    `#!/bin/sh\ncase "$1" in --version|-l) exec ${realVips} "$@";; esac\necho $$ >> ${pidFile}\nexec sleep 300\n`,
    { mode: 0o755 },
  );
  return bin;
}

/** Whether the process lives; a killed one not yet reaped (a zombie, whose parent exited) does not. */
async function isRunning(pid: number): Promise<boolean> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  return stat != null && stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
}

describe('SIGTERM on a worker', () => {
  it('says not ready, hands its running conversion back to the queue unspent, kills the tool, exits 0; another worker finishes it', async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.close());
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'pathology-drain-'));
    cleanups.push(() => fs.rm(dataDir, { recursive: true, force: true }));
    const pidFile = path.join(dataDir, 'vips.pids');
    const bin = await hangingVips(dataDir, pidFile);

    const make = factories(database.db);
    const imageId = await make.image(await make.case(), { status: 'uploaded', filename: 'slide.svs' });
    const key = imageBlobKeys.original(imageId);
    await new FilesystemBlobStore(path.join(dataDir, 'blobs')).put(
      key,
      createReadStream(slidePath('CMU-1-Small-Region.svs')),
    );
    await database.db.update(images).set({ originalKey: key }).where(eq(images.id, imageId));

    const opsPort = await freePort();
    const env = { DATABASE_URL: database.url, DATA_DIR: dataDir, WORKER_CONCURRENCY: '1' };
    const worker = startServerProcess(
      { ...env, OPS_PORT: String(opsPort), SHUTDOWN_GRACE_SECONDS: '1', PATH: `${bin}:${process.env.PATH}` },
      ['--role', 'worker'],
    );
    cleanups.push(() => worker.stop());
    const ready = async () =>
      (await fetch(`http://127.0.0.1:${opsPort}/api/v1/health/ready`).catch(() => null))?.status;
    await vi.waitFor(async () => expect(await ready()).toBe(200), { timeout: 60_000, interval: 250 });
    const live = await fetch(`http://127.0.0.1:${opsPort}/api/v1/health/live`);
    expect(await live.json()).toEqual({ status: 'ok' });

    const queue = new JobQueue<QueuePayloads>({ connectionString: database.url, policies: QUEUE_POLICIES });
    await queue.start();
    cleanups.push(() => queue.stop());
    const jobId = await queue.send('convert', { imageId });
    let toolPid = 0;
    await vi.waitFor(
      async () => {
        toolPid = Number((await fs.readFile(pidFile, 'utf8').catch(() => '')).trim().split('\n')[0]);
        expect(toolPid).toBeGreaterThan(0);
      },
      { timeout: 60_000, interval: 100 },
    );
    expect((await queue.getJob('convert', jobId))?.state).toBe('active');

    worker.child.kill('SIGTERM');
    // Out of rotation at once, while the grace period runs.
    await vi.waitFor(async () => expect(await ready()).toBe(503), { timeout: 900, interval: 50 });
    expect(await worker.exited).toBe(0);
    expect(worker.output()).toContain('running jobs handed back to the queue');
    expect(await queue.getJob('convert', jobId)).toEqual({ state: 'created', retryCount: 0 });
    expect(await isRunning(toolPid)).toBe(false);
    const [image] = await database.db.select().from(images).where(eq(images.id, imageId));
    expect(image?.status).toBe('processing');

    // Another worker, with the real vips, takes the job at once and finishes it on its first attempt.
    const second = startServerProcess({ ...env, DATA_DIR: dataDir }, ['--role', 'worker']);
    cleanups.push(() => second.stop());
    await vi.waitFor(
      async () => {
        const [now] = await database.db.select().from(images).where(eq(images.id, imageId));
        expect(now?.status).toBe('available');
      },
      { timeout: 120_000, interval: 500 },
    );
    expect(await queue.getJob('convert', jobId)).toMatchObject({ state: 'completed', retryCount: 0 });
    expect(await second.stop()).toBe(0);
  }, 300_000);
});
