import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '#test/test-database.ts';
import { JobQueue } from './job-queue.ts';
import { QUEUE_POLICIES, type QueuePayloads } from './queues.ts';

describe('job queue start', () => {
  it('lets several processes start together on a database without queues (no deadlock creating them)', async () => {
    const database = await createTestDatabase();
    await database.pool.query('DROP SCHEMA IF EXISTS pgboss CASCADE');
    const queues = Array.from(
      { length: 4 },
      () => new JobQueue<QueuePayloads>({ connectionString: database.url, policies: QUEUE_POLICIES }),
    );
    try {
      const started = await Promise.allSettled(queues.map((queue) => queue.start()));
      expect(started.filter((result) => result.status === 'rejected')).toEqual([]);
      expect(Object.keys(await queues[0]!.state()).sort()).toEqual(Object.keys(QUEUE_POLICIES).sort());
    } finally {
      for (const queue of queues) await queue.stop().catch(() => undefined);
      await database.close();
    }
  });
});
