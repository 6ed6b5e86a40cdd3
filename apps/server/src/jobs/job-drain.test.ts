import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, type TestDatabase } from '#test/test-database.ts';
import { CRASH_LEASE, CRASH_POLICIES, type CrashQueues } from '#test/fixtures/crash-queue.ts';
import { JobQueue } from './job-queue.ts';

type Ended = [queue: string, outcome: string];

describe('job queue drain (SIGTERM)', () => {
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

  async function worker(ended: Ended[] = []): Promise<JobQueue<CrashQueues>> {
    const started = new JobQueue<CrashQueues>({
      connectionString: database.url,
      policies: CRASH_POLICIES,
      lease: CRASH_LEASE,
      onJobEnd: (name, seconds, outcome) => {
        expect(seconds).toBeGreaterThanOrEqual(0);
        ended.push([name, outcome]);
      },
    });
    await started.start();
    workers.push(started);
    return started;
  }

  it('hands a job still running after the grace period back to its queue, unspent, and another worker finishes it', async () => {
    const ended: Ended[] = [];
    const draining = await worker(ended);
    const started: string[] = [];
    // A conversion far longer than the grace period.
    await draining.work(
      {
        'crash-test': async (_payload, job) => {
          started.push(job.id);
          await new Promise(() => undefined);
        },
      },
      1,
    );
    const jobId = await queue.send('crash-test', { step: 1 });
    await vi.waitFor(() => expect(started).toEqual([jobId]), { timeout: 10_000, interval: 100 });

    expect(await draining.drain(300)).toBe(1);
    expect(await queue.getJob('crash-test', jobId)).toEqual({ state: 'created', retryCount: 0 });
    await vi.waitFor(() => expect(ended).toEqual([['crash-test', 'released']]));
    // Stopping the drained worker must not fail the job it gave back (pg-boss fails what it thinks still runs).
    await draining.stop();
    expect((await queue.getJob('crash-test', jobId))?.state).toBe('created');

    const attempts: number[] = [];
    await (await worker()).work({ 'crash-test': async (_p, job) => void attempts.push(job.retryCount) }, 1);
    await vi.waitFor(async () => expect((await queue.getJob('crash-test', jobId))?.state).toBe('completed'), {
      timeout: 10_000,
      interval: 100,
    });
    // The handed-back run cost no attempt.
    expect(attempts).toEqual([0]);
  });

  it('lets a job that ends within the grace period complete, and takes no new one meanwhile', async () => {
    const ended: Ended[] = [];
    const draining = await worker(ended);
    const started: number[] = [];
    await draining.work(
      {
        'crash-test': async ({ step }) => {
          started.push(step);
          await new Promise((resolve) => setTimeout(resolve, 500));
        },
      },
      1,
    );
    const first = await queue.send('crash-test', { step: 10 });
    await vi.waitFor(() => expect(started).toEqual([10]), { timeout: 10_000, interval: 50 });
    const drained = draining.drain(5_000);
    const second = await queue.send('crash-test', { step: 11 });
    expect(await drained).toBe(0);
    // pg-boss records the completion right after the handler returns.
    await vi.waitFor(async () => expect((await queue.getJob('crash-test', first))?.state).toBe('completed'));
    expect(ended).toEqual([['crash-test', 'completed']]);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(started).toEqual([10]);
    expect((await queue.getJob('crash-test', second))?.state).toBe('created');
  });
});
