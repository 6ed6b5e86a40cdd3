import { spawn } from 'node:child_process';
import { once } from 'node:events';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, type TestDatabase } from '#test/test-database.ts';
import { CRASH_POLICIES, type CrashQueues } from '#test/fixtures/crash-queue.ts';
import { JobQueue } from './job-queue.ts';

const hangingWorker = fileURLToPath(new URL('../../test/fixtures/hanging-worker.ts', import.meta.url));

describe('job queue', () => {
  let database: TestDatabase;
  let queue: JobQueue<CrashQueues>;

  beforeAll(async () => {
    database = await createTestDatabase();
    queue = new JobQueue<CrashQueues>({
      connectionString: database.url,
      policies: CRASH_POLICIES,
      maintenanceIntervalSeconds: 1,
    });
    await queue.start();
  });
  afterAll(async () => {
    await queue.stop();
    await database.close();
  });

  it('retries a job whose worker process was killed mid-run', async () => {
    const worker = spawn(process.execPath, ['--import', 'tsx', hangingWorker], {
      env: { ...process.env, DATABASE_URL: database.url },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = once(worker, 'exit');
    const jobId = await queue.send('crash-test', { step: 1 });
    for await (const line of readline.createInterface({ input: worker.stdout })) {
      if (line === `started ${jobId}`) break;
    }
    expect((await queue.getJob('crash-test', jobId))?.state).toBe('active');
    worker.kill('SIGKILL');
    await exited;

    const finished: { id: string; retryCount: number; step: number }[] = [];
    await queue.work({ 'crash-test': async ({ step }, job) => void finished.push({ ...job, step }) }, 1);
    await vi.waitFor(() => expect(finished).toHaveLength(1), { timeout: 30_000, interval: 200 });
    expect(finished[0]).toEqual({ id: jobId, retryCount: 1, step: 1 });
    await vi.waitFor(async () => expect((await queue.getJob('crash-test', jobId))?.state).toBe('completed'));
  });
});
