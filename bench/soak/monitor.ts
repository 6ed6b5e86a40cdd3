import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { SoakServer } from './server.ts';

/** How often the server's state is read: prom-client's event-loop percentiles cover the time since the last read. */
export const SAMPLE_MS = 5_000;

/** The server's state at one moment; null where it did not answer (down, restarting). */
export interface StateSample {
  at: number;
  /** Which start of the server answered (0 before any kill), to judge memory per process. */
  life: number;
  rssMiB: number | null;
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

function poolTotal(text: string): number | null {
  const lines = text
    .split('\n')
    .filter((line) => line.startsWith('db_pool_connections{') && line.includes('state="total"'));
  return lines.length === 0
    ? null
    : lines.reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

async function sample(server: SoakServer, life: number): Promise<StateSample> {
  const text = await fetch(`${server.baseUrl}/metrics`, { signal: AbortSignal.timeout(10_000) })
    .then((response) => (response.ok ? response.text() : ''))
    .catch(() => '');
  const seconds = (name: string) => {
    const value = metric(text, name);
    return value == null ? null : value * 1000;
  };
  const rss = metric(text, 'process_resident_memory_bytes');
  const connections = await clientConnections(server.databaseUrl);
  return {
    at: Date.now(),
    life,
    rssMiB: rss == null ? null : rss / 1024 / 1024,
    loopP99Ms: seconds('nodejs_eventloop_lag_p99_seconds'),
    loopMaxMs: seconds('nodejs_eventloop_lag_max_seconds'),
    postgresConnections: connections,
    poolConnections: poolTotal(text),
  };
}

/** Reads the server's state every SAMPLE_MS until stopped; `life()` says which start of the server runs. */
export function startMonitor(server: SoakServer, life: () => number, onSample: (sample: StateSample) => void) {
  const samples: StateSample[] = [];
  let running = true;
  const done = (async () => {
    while (running) {
      const taken = await sample(server, life());
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
