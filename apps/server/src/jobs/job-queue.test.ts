import { spawn } from 'node:child_process';
import { once } from 'node:events';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, type TestDatabase } from '#test/test-database.ts';
import { CRASH_LEASE, CRASH_POLICIES, type CrashQueues } from '#test/fixtures/crash-queue.ts';
import { JobQueue, WORKER_LOST } from './job-queue.ts';

const hangingWorker = fileURLToPath(new URL('../../test/fixtures/hanging-worker.ts', import.meta.url));

describe('job queue', () => {
  let database: TestDatabase;
  let queue: JobQueue<CrashQueues>;
  let workers: JobQueue<CrashQueues>[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    queue = new JobQueue<CrashQueues>({ connectionString: database.url, policies: CRASH_POLICIES, lease: CRASH_LEASE });
    await queue.start();
  });
  afterEach(async () => {
    for (const worker of workers) await worker.stop();
    workers = [];
  });
  afterAll(async () => {
    await queue.stop();
    await database.close();
  });

  /** A second queue client that works jobs, as another worker process would. */
  async function worker(): Promise<JobQueue<CrashQueues>> {
    const started = new JobQueue<CrashQueues>({
      connectionString: database.url,
      policies: CRASH_POLICIES,
      lease: CRASH_LEASE,
    });
    await started.start();
    workers.push(started);
    return started;
  }

  /** Sends a job and lets a separate worker process take it, then kills that process. */
  async function jobOfKilledWorker(step: number): Promise<string> {
    const child = spawn(process.execPath, ['--import', 'tsx', hangingWorker], {
      env: { ...process.env, DATABASE_URL: database.url },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = once(child, 'exit');
    const jobId = await queue.send('crash-test', { step });
    for await (const line of readline.createInterface({ input: child.stdout })) {
      if (line === `started ${jobId}`) break;
    }
    expect((await queue.getJob('crash-test', jobId))?.state).toBe('active');
    expect(await queue.alive('crash-test', { step })).toBe(true);
    expect(await queue.running('crash-test')).toContainEqual({ payload: { step }, retryCount: 0 });
    child.kill('SIGKILL');
    await exited;
    return jobId;
  }

  it('keeps a job sent to start later from workers until then, unless startNow lets them take it at once', async () => {
    const taken = new Map<number, number>();
    await (await worker()).work({ 'crash-test': async ({ step }) => void taken.set(step, Date.now()) }, 1);
    const sent = Date.now();
    // The conversion of an upload whose process died before it said "now" (CONVERSION_FALLBACK_SECONDS).
    await queue.send('crash-test', { step: 201 }, { startAfterSeconds: 3 });
    // The conversion of an upload whose view from its original is ready.
    const hurried = await queue.send('crash-test', { step: 202 }, { startAfterSeconds: 600 });
    await queue.startNow('crash-test', hurried);
    await vi.waitFor(() => expect([...taken.keys()].sort()).toEqual([201, 202]), { timeout: 15_000, interval: 100 });
    expect(taken.get(201)! - sent).toBeGreaterThanOrEqual(2_500);
    expect(taken.get(202)! - sent).toBeLessThan(2_500);
  });

  it('retries a job whose worker process was killed once its heartbeat lapses, long before the job expires', async () => {
    const jobId = await jobOfKilledWorker(1);
    const finished: { id: string; retryCount: number; step: number }[] = [];
    const startedAt = Date.now();
    await (await worker()).work({ 'crash-test': async ({ step }, job) => void finished.push({ ...job, step }) }, 1);
    await vi.waitFor(() => expect(finished).toHaveLength(1), { timeout: 30_000, interval: 200 });
    // The queue's expiry is an hour: only the lapsed lease can have brought the job back.
    expect(Date.now() - startedAt).toBeLessThan(15_000);
    expect(finished[0]).toEqual({ id: jobId, retryCount: 1, step: 1 });
    await vi.waitFor(async () => expect((await queue.getJob('crash-test', jobId))?.state).toBe('completed'));
  });

  it('tells a dead worker’s job from a live one: alive while queued, not once its lease lapsed', async () => {
    await jobOfKilledWorker(2);
    await vi.waitFor(async () => expect(await queue.alive('crash-test', { step: 2 })).toBe(false), {
      timeout: 10_000,
      interval: 200,
    });
    expect(await queue.alive('crash-test', { step: 99 })).toBe(false);
  });

  it('leaves a live job that runs past the lapse alone: its heartbeat keeps it', async () => {
    const runs: number[] = [];
    await (
      await worker()
    ).work(
      {
        'crash-test': async ({ step }, job) => {
          if (step !== 3) return;
          runs.push(job.retryCount);
          await new Promise((resolve) => setTimeout(resolve, CRASH_LEASE.lapseSeconds * 3000));
        },
      },
      1,
    );
    const jobId = await queue.send('crash-test', { step: 3 });
    await vi.waitFor(async () => expect((await queue.getJob('crash-test', jobId))?.state).toBe('completed'), {
      timeout: 20_000,
      interval: 250,
    });
    expect(runs).toEqual([0]);
  });

  it('hands a job given up after its last attempt died to the queue’s given-up handler', async () => {
    const lastTry = new JobQueue<CrashQueues>({
      connectionString: database.url,
      policies: { 'crash-test': { ...CRASH_POLICIES['crash-test'], retryLimit: 0 } },
      lease: CRASH_LEASE,
    });
    await lastTry.start();
    workers.push(lastTry);
    const jobId = await jobOfKilledWorker(4);
    const givenUp: unknown[] = [];
    await lastTry.work({ 'crash-test': async () => undefined }, 1, {
      'crash-test': async (payload) => void givenUp.push(payload),
    });
    await vi.waitFor(() => expect(givenUp).toEqual([{ step: 4 }]), { timeout: 15_000, interval: 200 });
    expect(await queue.getJob('crash-test', jobId)).toMatchObject({ state: 'failed' });
    expect(WORKER_LOST).toMatch(/heartbeat/);
  });

  it('tells what it took back from a dead worker, so the worker’s leftovers can be cleared', async () => {
    await jobOfKilledWorker(5);
    const takenBack: unknown[] = [];
    await (
      await worker()
    ).work({ 'crash-test': async () => undefined }, 1, {}, async (jobs) => void takenBack.push(...jobs));
    await vi.waitFor(() => expect(takenBack).toContainEqual({ name: 'crash-test', payload: { step: 5 } }), {
      timeout: 15_000,
      interval: 200,
    });
    expect((await queue.running('crash-test')).map((job) => job.payload)).not.toContainEqual({ step: 5 });
  });
});
