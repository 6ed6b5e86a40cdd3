import type pg from 'pg';
import client from 'prom-client';
import type { QueueStates } from '../jobs/job-queue.ts';

export type JobOutcome = 'completed' | 'failed' | 'released';

/** This process's Prometheus metrics, in a registry of its own (tests build several apps in one process). */
export interface Metrics {
  registry: client.Registry;
  httpDuration: client.Histogram<'method' | 'route' | 'status_code'>;
  tileCacheLookups: client.Counter<'result'>;
  tileLaneAnswers: client.Counter;
  /** Requests CHAOS answered 503 on purpose, per route pattern (a journey shows that failures really happened). */
  chaosFailures: client.Counter<'route'>;
  detectionTileCacheLookups: client.Counter<'result'>;
  jobDuration: client.Histogram<'queue' | 'outcome'>;
  /** Reports the pool's connections at each scrape. */
  watchPool(name: string, pool: Pick<pg.Pool, 'totalCount' | 'idleCount' | 'waitingCount'>): void;
  /** Reports the queues' depths at each scrape. */
  watchQueues(state: () => Promise<QueueStates>): void;
}

export function createMetrics(): Metrics {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const pools = new Map<string, Pick<pg.Pool, 'totalCount' | 'idleCount' | 'waitingCount'>>();
  let queueState: (() => Promise<QueueStates>) | undefined;

  new client.Gauge({
    name: 'db_pool_connections',
    help: 'Connections of the PostgreSQL pool by state (total, idle, waiting clients)',
    labelNames: ['pool', 'state'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [name, pool] of pools) {
        this.set({ pool: name, state: 'total' }, pool.totalCount);
        this.set({ pool: name, state: 'idle' }, pool.idleCount);
        this.set({ pool: name, state: 'waiting' }, pool.waitingCount);
      }
    },
  });
  new client.Gauge({
    name: 'job_queue_jobs',
    help: 'Jobs per queue and state (queued, active, failed), read from the database at each scrape',
    labelNames: ['queue', 'state'],
    registers: [registry],
    async collect() {
      if (queueState == null) return;
      // A database away must not fail the whole scrape: the other metrics still say something.
      const states = await queueState().catch(() => undefined);
      this.reset();
      for (const [queue, counts] of Object.entries(states ?? {})) {
        for (const [state, count] of Object.entries(counts)) this.set({ queue, state }, count);
      }
    },
  });

  return {
    registry,
    httpDuration: new client.Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from request to response, per route pattern',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    tileCacheLookups: new client.Counter({
      name: 'tile_cache_lookups_total',
      help: 'Slide tiles looked up in the in-memory tile cache, by result (hit, miss)',
      labelNames: ['result'],
      registers: [registry],
    }),
    tileLaneAnswers: new client.Counter({
      name: 'iiif_tile_lane_answers_total',
      help: 'Pyramid tiles answered by the lean path (token, access and pyramid known from caches), before the general hooks',
      registers: [registry],
    }),
    chaosFailures: new client.Counter({
      name: 'chaos_failures_total',
      help: 'Requests the CHAOS setting answered 503 on purpose, per route pattern',
      labelNames: ['route'],
      registers: [registry],
    }),
    detectionTileCacheLookups: new client.Counter({
      name: 'detection_tile_cache_lookups_total',
      help: 'Drawn detection tiles looked up in the in-memory cache, by result (hit, miss)',
      labelNames: ['result'],
      registers: [registry],
    }),
    jobDuration: new client.Histogram({
      name: 'job_duration_seconds',
      help: 'Run time of background jobs per queue and outcome (completed, failed, released on shutdown)',
      labelNames: ['queue', 'outcome'],
      buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600],
      registers: [registry],
    }),
    watchPool: (name, pool) => void pools.set(name, pool),
    watchQueues: (state) => void (queueState = state),
  };
}
