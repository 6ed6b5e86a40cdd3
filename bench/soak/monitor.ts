import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { SoakTarget } from './target.ts';

/** How often the server's state is read: prom-client's event-loop percentiles cover the time since the last read. */
export const SAMPLE_MS = 5_000;

/**
 * The server's state at one moment (the scaled topology's: RSS and pool connections summed over its processes, the
 * worst event-loop delay); null where it did not answer (down, restarting).
 */
export interface StateSample {
  at: number;
  /** Which set of processes answered (0 before any kill, one more after each kill and restart), to judge memory. */
  life: number;
  rssMiB: number | null;
  /** What the servers' in-memory caches hold (bounded by TILE_CACHE_MB): RSS they fill up to their bound is no leak. */
  cacheMiB: number | null;
  /**
   * Where the rest of RSS lies: the main threads' JavaScript heaps, and memory held outside them for JavaScript
   * (Buffers, the caches' tiles among them). Worker threads and native libraries are RSS less these.
   */
  heapMiB: number | null;
  externalMiB: number | null;
  /** 99th percentile and maximum of the event loop's delay since the previous sample. */
  loopP99Ms: number | null;
  loopMaxMs: number | null;
  /** Client connections to PostgreSQL (pg_stat_activity), and the server's own pool's. */
  postgresConnections: number | null;
  poolConnections: number | null;
}

/** Waits no longer than this for PostgreSQL: while it restarts, a connection may hang rather than fail. */
const QUERY_TIMEOUT_MS = 5_000;

async function clientConnections(url: string): Promise<number | null> {
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: QUERY_TIMEOUT_MS,
    query_timeout: QUERY_TIMEOUT_MS,
  });
  try {
    await client.connect();
    const { rows } = await client.query<{ count: string }>(
      `SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'`,
    );
    return Number(rows[0]!.count);
  } catch {
    return null;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function metric(text: string, name: string, labels = ''): number | null {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name}${labels} `));
  return line == null ? null : Number(line.slice(line.lastIndexOf(' ') + 1));
}

/** The sum of a metric's series that carry `label` (e.g. `state="total"`), or null when it has none. */
function labelledSum(text: string, name: string, label: string): number | null {
  const lines = text.split('\n').filter((line) => line.startsWith(`${name}{`) && line.includes(label));
  return lines.length === 0
    ? null
    : lines.reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

const mebibytes = (bytes: number | null) => (bytes == null ? null : bytes / 1024 / 1024);

/** The state of the processes running now: RSS and pool connections added up, event-loop delays at their worst. */
async function sample(target: SoakTarget, life: number): Promise<StateSample> {
  const texts = await Promise.all(
    target.metricsUrls().map((url) =>
      fetch(url, { signal: AbortSignal.timeout(10_000) })
        .then((response) => (response.ok ? response.text() : ''))
        .catch(() => ''),
    ),
  );
  const each = (read: (text: string) => number | null) =>
    texts.map(read).filter((value): value is number => value != null);
  const sum = (values: number[]) => (values.length === 0 ? null : values.reduce((a, b) => a + b, 0));
  const worst = (values: number[]) => (values.length === 0 ? null : Math.max(...values));
  const seconds = (name: string) => worst(each((text) => metric(text, name)).map((value) => value * 1000));
  const rss = sum(each((text) => metric(text, 'process_resident_memory_bytes')));
  const cache = sum(each((text) => labelledSum(text, 'memory_cache_bytes', 'state="held"')));
  const connections = await clientConnections(target.databaseUrl);
  return {
    at: Date.now(),
    life,
    rssMiB: mebibytes(rss),
    cacheMiB: mebibytes(cache),
    heapMiB: mebibytes(sum(each((text) => metric(text, 'nodejs_heap_size_total_bytes')))),
    externalMiB: mebibytes(sum(each((text) => metric(text, 'nodejs_external_memory_bytes')))),
    loopP99Ms: seconds('nodejs_eventloop_lag_p99_seconds'),
    loopMaxMs: seconds('nodejs_eventloop_lag_max_seconds'),
    postgresConnections: connections,
    poolConnections: sum(each((text) => labelledSum(text, 'db_pool_connections', 'state="total"'))),
  };
}

/** Reads the server's state every SAMPLE_MS until stopped; `life()` says which start of the server runs. */
export function startMonitor(target: SoakTarget, life: () => number, onSample: (sample: StateSample) => void) {
  const samples: StateSample[] = [];
  let running = true;
  const done = (async () => {
    while (running) {
      const taken = await sample(target, life());
      samples.push(taken);
      onSample(taken);
      await sleep(SAMPLE_MS);
    }
  })();
  return {
    samples,
    async stop(): Promise<StateSample[]> {
      running = false;
      await done;
      return samples;
    },
  };
}
