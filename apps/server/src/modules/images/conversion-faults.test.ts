import { execFileSync } from 'node:child_process';
import { createReadStream, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { factories } from '#test/factories.ts';
import { CONVERT_CRASH_POLICIES, CRASH_LEASE, type ConvertQueue } from '#test/fixtures/crash-queue.ts';
import { createTestDatabase, type TestDatabase } from '#test/test-database.ts';
import { slidePath } from '#test/testdata.ts';
import { cases, images } from '../../db/schema/index.ts';
import { JobQueue } from '../../jobs/job-queue.ts';
import { FilesystemBlobStore } from '../../storage/filesystem-blob-store.ts';
import { imageBlobKeys } from './image-blobs.ts';
import { convertImageJob, type ConversionDeps } from './image-conversion.job.ts';

/** Running, not a zombie. */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/**
 * A `vips` first on PATH that records the pid of each pyramid it writes (dzsave), holds it while the
 * file `hold` exists, and kills itself with SIGKILL (as the out-of-memory killer would) as many
 * times as the file `kills` says; otherwise it is the real vips.
 */
function fakeVips(control: string, realVips: string): string {
  return `#!/bin/sh
if [ "$1" = dzsave ]; then
  echo $$ >> "${control}/pids"
  while [ -f "${control}/hold" ]; do sleep 0.1; done
  kills=$(cat "${control}/kills" 2>/dev/null || echo 0)
  if [ "$kills" -gt 0 ]; then echo $((kills - 1)) > "${control}/kills"; kill -KILL $$; fi
fi
exec ${realVips} "$@"
`;
}

describe('a conversion whose vips child dies or whose image is deleted', () => {
  let database: TestDatabase;
  let root: string;
  let control: string;
  let deps: ConversionDeps;
  let queue: JobQueue<ConvertQueue>;
  const path0 = process.env.PATH;

  beforeAll(async () => {
    database = await createTestDatabase();
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'pathology-conversion-faults-'));
    control = path.join(root, 'control');
    await fs.mkdir(path.join(root, 'bin'));
    await fs.mkdir(control);
    const realVips = execFileSync('sh', ['-c', 'command -v vips'], { encoding: 'utf8' }).trim();
    await fs.writeFile(path.join(root, 'bin', 'vips'), fakeVips(control, realVips), { mode: 0o755 });
    process.env.PATH = `${path.join(root, 'bin')}:${path0}`;
    deps = {
      db: database.db,
      blobs: new FilesystemBlobStore(path.join(root, 'blobs')),
      log: pino({ level: 'silent' }),
      scratchDir: path.join(root, 'tmp'),
      timeoutSeconds: 120,
    };
    queue = new JobQueue<ConvertQueue>({
      connectionString: database.url,
      policies: CONVERT_CRASH_POLICIES,
      lease: CRASH_LEASE,
    });
    await queue.start();
    await queue.work(
      { convert: ({ imageId }, job) => convertImageJob(deps, { imageId, retryCount: job.retryCount, retryLimit: 2 }) },
      1,
    );
  });
  beforeEach(async () => {
    for (const name of ['pids', 'hold', 'kills']) await fs.rm(path.join(control, name), { force: true });
  });
  afterAll(async () => {
    process.env.PATH = path0;
    await queue.stop();
    await database.close();
    await fs.rm(root, { recursive: true, force: true });
  });

  async function uploaded(): Promise<{ imageId: string; caseId: string }> {
    const f = factories(database.db);
    const caseId = await f.case({ ownerOrganizationId: await f.organization() });
    const imageId = await f.image(caseId, { status: 'uploaded', filename: 'slide.svs' });
    const key = imageBlobKeys.original(imageId);
    await deps.blobs.put(key, createReadStream(slidePath('CMU-1-Small-Region.svs')));
    await database.db.update(images).set({ originalKey: key }).where(eq(images.id, imageId));
    return { imageId, caseId };
  }

  async function imageRow(imageId: string) {
    const [row] = await database.db.select().from(images).where(eq(images.id, imageId));
    return row;
  }

  async function pids(): Promise<number[]> {
    const text = await fs.readFile(path.join(control, 'pids'), 'utf8').catch(() => '');
    return text.split('\n').filter(Boolean).map(Number);
  }

  it('retries an attempt whose vips was killed by SIGKILL, and the retry converts the image', async () => {
    await fs.writeFile(path.join(control, 'kills'), '1');
    const { imageId } = await uploaded();
    const jobId = await queue.send('convert', { imageId });
    await vi.waitFor(async () => expect((await queue.getJob('convert', jobId))?.state).toBe('completed'), {
      timeout: 60_000,
      interval: 250,
    });
    expect((await queue.getJob('convert', jobId))?.retryCount).toBe(1);
    expect(await pids()).toHaveLength(2);
    expect(await imageRow(imageId)).toMatchObject({ status: 'available', processErrorCode: null });
  }, 90_000);

  it('gives -101 "please reprocess", not -100, when vips is killed on every attempt', async () => {
    await fs.writeFile(path.join(control, 'kills'), '3');
    const { imageId } = await uploaded();
    const jobId = await queue.send('convert', { imageId });
    await vi.waitFor(async () => expect((await queue.getJob('convert', jobId))?.state).toBe('failed'), {
      timeout: 60_000,
      interval: 250,
    });
    expect(await pids()).toHaveLength(3);
    const image = await imageRow(imageId);
    expect(image).toMatchObject({ status: 'process_failed', processErrorCode: -101 });
    expect(image?.processErrorMessage).toMatch(/^Please reprocess image: .*vips was stopped by SIGKILL/i);
  }, 90_000);

  it.each(['image', 'case'] as const)(
    'stops at once when its %s is deleted: vips killed, no scratch, no blobs, no retry',
    async (deleted) => {
      await fs.writeFile(path.join(control, 'hold'), '');
      const { imageId, caseId } = await uploaded();
      const jobId = await queue.send('convert', { imageId });
      await vi.waitFor(async () => expect(await pids()).toHaveLength(1), { timeout: 30_000, interval: 100 });
      const [vipsPid] = await pids();
      expect(alive(vipsPid!)).toBe(true);

      // Deleted by SQL, as another process would: only the database tells the worker.
      const deletedAt = Date.now();
      if (deleted === 'image') await database.db.delete(images).where(eq(images.id, imageId));
      else await database.db.delete(cases).where(eq(cases.id, caseId));
      await vi.waitFor(() => expect(alive(vipsPid!)).toBe(false), { timeout: 5_000, interval: 50 });
      expect(Date.now() - deletedAt).toBeLessThan(3_000);
      await vi.waitFor(async () => expect((await queue.getJob('convert', jobId))?.state).toBe('completed'), {
        timeout: 10_000,
        interval: 100,
      });
      expect(await fs.readdir(deps.scratchDir)).toEqual([]);
      const left: string[] = [];
      for await (const key of deps.blobs.list(imageBlobKeys.prefix(imageId))) left.push(key);
      expect(left).toEqual([]);
    },
    60_000,
  );
});
