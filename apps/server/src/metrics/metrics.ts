import { createRequire } from 'node:module';
import type pg from 'pg';
import type client from 'prom-client';
import type { QueueStates } from '../jobs/job-queue.ts';

/**
 * prom-client's classes and default metrics, each from its own file: its index also loads the push gateway, the
 * cluster aggregator and, for the default CPU counters, @opentelemetry/api (51 modules, only read for exemplars,
 * which this server never records) at every start. The CPU counters are made here instead, as prom-client makes them.
 */
const require = createRequire(import.meta.url);
const Registry = require('prom-client/lib/registry') as typeof client.Registry;
const Counter = require('prom-client/lib/counter') as typeof client.Counter;
const Gauge = require('prom-client/lib/gauge') as typeof client.Gauge;
const Histogram = require('prom-client/lib/histogram') as typeof client.Histogram;

/** prom-client's default metrics after its CPU counters (lib/defaultMetrics.js), with its default options. */
const DEFAULT_METRICS = [
  'processStartTime',
  'osMemoryHeap',
  'processOpenFileDescriptors',
  'processMaxFileDescriptors',
  'eventLoopLag',
  'processResources',
  'processHandles',
  'processRequests',
  'heapSizeAndUsed',
  'heapSpacesSizeAndUsed',
  'version',
  'gc',
];
const DEFAULT_METRICS_OPTIONS = { eventLoopMonitoringPrecision: 10 };

type DefaultMetric = (registry: client.Registry, options: typeof DEFAULT_METRICS_OPTIONS) => void;

/** All of prom-client's default metrics, in its order (the CPU counters first). */
function collectDefaultMetrics(registry: client.Registry): void {
  collectCpuTime(registry);
  for (const name of DEFAULT_METRICS)
    (require(`prom-client/lib/metrics/${name}`) as DefaultMetric)(registry, DEFAULT_METRICS_OPTIONS);
}

/** prom-client's process_cpu_* counters (lib/metrics/processCpuTotal.js without exemplars): CPU since they were made. */
function collectCpuTime(registry: client.Registry): void {
  let last = process.cpuUsage();
  const counter = (name: string, help: string, collect?: () => void) =>
    new Counter({ name, help, registers: [registry], collect });
  const user = counter('process_cpu_user_seconds_total', 'Total user CPU time spent in seconds.', () => {
    const now = process.cpuUsage();
    const userSeconds = (now.user - last.user) / 1e6;
    const systemSeconds = (now.system - last.system) / 1e6;
    last = now;
    user.inc(userSeconds);
    system.inc(systemSeconds);
    total.inc(userSeconds + systemSeconds);
  });
  const system = counter('process_cpu_system_seconds_total', 'Total system CPU time spent in seconds.');
  const total = counter('process_cpu_seconds_total', 'Total user and system CPU time spent in seconds.');
}

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
  /** Reports what an in-memory cache holds against its bound at each scrape (a full cache is no leak). */
  watchCache(name: string, cache: { readonly bytes: number }, limitBytes: number): void;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics(registry);
  const pools = new Map<string, Pick<pg.Pool, 'totalCount' | 'idleCount' | 'waitingCount'>>();
  let queueState: (() => Promise<QueueStates>) | undefined;
  const caches = new Map<string, { cache: { readonly bytes: number }; limitBytes: number }>();

  new Gauge({
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
  new Gauge({
    name: 'memory_cache_bytes',
    help: 'Bytes an in-memory cache holds (state="held") and may hold at most (state="limit"), per cache',
    labelNames: ['cache', 'state'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [name, { cache, limitBytes }] of caches) {
        this.set({ cache: name, state: 'held' }, cache.bytes);
        this.set({ cache: name, state: 'limit' }, limitBytes);
      }
    },
  });
  new Gauge({
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
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from request to response, per route pattern',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    tileCacheLookups: new Counter({
      name: 'tile_cache_lookups_total',
      help: 'Slide tiles looked up in the in-memory tile cache, by result (hit, miss)',
      labelNames: ['result'],
      registers: [registry],
    }),
    tileLaneAnswers: new Counter({
      name: 'iiif_tile_lane_answers_total',
      help: 'Pyramid tiles answered by the lean path (token, access and pyramid known from caches), before the general hooks',
      registers: [registry],
    }),
    chaosFailures: new Counter({
      name: 'chaos_failures_total',
      help: 'Requests the CHAOS setting answered 503 on purpose, per route pattern',
      labelNames: ['route'],
      registers: [registry],
    }),
    detectionTileCacheLookups: new Counter({
      name: 'detection_tile_cache_lookups_total',
      help: 'Drawn detection tiles looked up in the in-memory cache, by result (hit, miss)',
      labelNames: ['result'],
      registers: [registry],
    }),
    jobDuration: new Histogram({
      name: 'job_duration_seconds',
      help: 'Run time of background jobs per queue and outcome (completed, failed, released on shutdown)',
      labelNames: ['queue', 'outcome'],
      buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600],
      registers: [registry],
    }),
    watchPool: (name, pool) => void pools.set(name, pool),
    watchQueues: (state) => void (queueState = state),
    watchCache: (name, cache, limitBytes) => void caches.set(name, { cache, limitBytes }),
  };
}
