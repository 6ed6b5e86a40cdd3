import type { Health } from '@pathology/contract';
import type pg from 'pg';
import type { ProcessRole } from '../../config.ts';
import type { QueueStates } from '../../jobs/job-queue.ts';

export interface HealthDeps {
  pool: Pick<pg.Pool, 'query'>;
  queueState: () => Promise<QueueStates>;
  role: ProcessRole;
  version: string;
}

/** Asks the database and the job queue whether they answer; never throws, reports what failed instead. */
export async function checkHealth(deps: HealthDeps): Promise<Health> {
  const started = performance.now();
  const database = await deps.pool.query('SELECT 1').then(
    () => ({ ok: true, latencyMs: Math.round((performance.now() - started) * 10) / 10 }),
    (error: unknown) => ({ ok: false, error: describe(error) }),
  );
  const queue = await deps.queueState().then(
    (queues) => ({ ok: true, queues }),
    (error: unknown) => ({ ok: false, error: describe(error) }),
  );
  return {
    status: database.ok && queue.ok ? 'ok' : 'degraded',
    version: deps.version,
    role: deps.role,
    database,
    queue,
  };
}

/** What an anonymous caller is told: whether the database and queue answer, not the version, sizes or errors. */
export function anonymousHealth(health: Health): Health {
  return {
    status: health.status,
    role: health.role,
    database: { ok: health.database.ok },
    queue: { ok: health.queue.ok },
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
