import pg from 'pg';
import PgBoss from 'pg-boss';
import { DEFAULT_LEASE, JobLeases, type LeasePolicy } from './job-leases.ts';

/** Retry, expiry and concurrency of one queue. */
export interface QueuePolicy {
  retryLimit: number;
  retryDelaySeconds: number;
  /** Hard limit of one attempt; a dead worker's job is taken back much sooner, by its lapsed lease. */
  expireInSeconds: number;
}

export type JobHandler<P> = (payload: P, job: { id: string; retryCount: number }) => Promise<void>;
export type JobHandlers<M> = { [Q in keyof M & string]: JobHandler<M[Q]> };
/** Called when a queue's job is given up for good after its worker died on the last attempt. */
export type GivenUpHandlers<M> = { [Q in keyof M & string]?: (payload: M[Q]) => Promise<void> };
/** Called after jobs were taken back from dead workers, to clear what those workers left behind. */
export type TakenBackHandler<M> = (
  jobs: { [Q in keyof M & string]: { name: Q; payload: M[Q] } }[keyof M & string][],
) => Promise<void>;
export interface SendOptions {
  startAfterSeconds?: number;
}
export type QueueStates = Record<string, { queued: number; active: number; failed: number }>;

interface JobQueueOptions<M> {
  connectionString: string;
  policies: { [Q in keyof M & string]: QueuePolicy };
  /** How often expired (crashed) jobs are looked for; pg-boss's default is minutes, tests want seconds. */
  maintenanceIntervalSeconds?: number;
  pollingIntervalSeconds?: number;
  /** Heartbeat of running jobs; the default suits servers, tests shorten it. */
  lease?: LeasePolicy;
  onError?: (error: Error) => void;
  /** Told the run time of each job as it ends, for the metrics. */
  onJobEnd?: (queue: string, seconds: number, outcome: 'completed' | 'failed' | 'released') => void;
}

// Any constant works; it only has to be the same in every process of this application.
const QUEUE_SETUP_LOCK = 727_002;

/** The output recorded for a job taken back from a dead worker. */
export const WORKER_LOST = 'The worker running this job stopped (its heartbeat lapsed)';

/**
 * pg-boss behind a typed facade: one map M from queue name to payload type, so a send with
 * the wrong payload, or a handler for a queue that does not exist, does not compile.
 */
export class JobQueue<M extends { [Q in keyof M]: object }> {
  private readonly boss: PgBoss;
  private readonly lease: JobLeases;
  private sweep: NodeJS.Timeout | undefined;
  private worked: (keyof M & string)[] = [];
  /** Ends the wait of pg-boss on a running job once it is released back to the queue. */
  private readonly releases = new Map<string, () => void>();

  constructor(private readonly options: JobQueueOptions<M>) {
    this.boss = new PgBoss({
      connectionString: options.connectionString,
      max: 4,
      maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 30,
    });
    this.boss.on('error', (error) => options.onError?.(error));
    this.lease = new JobLeases(this.boss.getDb(), options.lease ?? DEFAULT_LEASE);
  }

  private queueNames(): (keyof M & string)[] {
    return Object.keys(this.options.policies) as (keyof M & string)[];
  }

  /**
   * Installs pg-boss's schema (first start) and creates every queue with its retry policy. Processes
   * starting together take turns (an advisory lock): pg-boss creates each queue's table partition,
   * and two processes doing so at once deadlock.
   */
  async start(): Promise<void> {
    await this.boss.start();
    const lock = new pg.Client({ connectionString: this.options.connectionString });
    await lock.connect();
    try {
      await lock.query('SELECT pg_advisory_lock($1)', [QUEUE_SETUP_LOCK]);
      for (const name of this.queueNames()) {
        const policy = this.options.policies[name];
        const queue = {
          name,
          retryLimit: policy.retryLimit,
          retryDelay: policy.retryDelaySeconds,
          retryBackoff: policy.retryDelaySeconds > 0,
          expireInSeconds: policy.expireInSeconds,
        };
        if ((await this.boss.getQueue(name)) == null) await this.boss.createQueue(name, queue);
        else await this.boss.updateQueue(name, queue);
      }
    } finally {
      // Ending the session releases the lock.
      await lock.end();
    }
  }

  /** Queues a job; with `startAfterSeconds`, no worker takes it before then unless `startNow` says so. */
  async send<Q extends keyof M & string>(name: Q, payload: M[Q], options: SendOptions = {}): Promise<string> {
    const id = await this.boss.send(
      name,
      payload,
      options.startAfterSeconds == null ? {} : { startAfter: options.startAfterSeconds },
    );
    if (id == null) throw new Error(`Job not queued: ${name}`);
    return id;
  }

  /** Lets workers take a job queued to start later at their next look; a job already taken is left as it is. */
  async startNow(name: keyof M & string, id: string): Promise<void> {
    await this.boss
      .getDb()
      .executeSql(`UPDATE pgboss.job SET start_after = now() WHERE name = $1 AND id = $2 AND state = 'created'`, [
        name,
        id,
      ]);
  }

  /**
   * Runs handlers for the given queues; each job is attempted alone so one failure retries only
   * itself, and holds a lease while it runs. Jobs of dead workers are taken back now and then.
   */
  async work(
    handlers: Partial<JobHandlers<M>>,
    concurrency: number,
    givenUp: GivenUpHandlers<M> = {},
    takenBack?: TakenBackHandler<M>,
  ): Promise<void> {
    const worked = this.queueNames().filter((name) => handlers[name] != null);
    this.worked = worked;
    const reclaim = () =>
      this.reclaimLapsed(worked, givenUp, takenBack).catch((error: unknown) => this.options.onError?.(error as Error));
    await reclaim();
    this.sweep = setInterval(() => void reclaim(), (this.lease.policy.lapseSeconds * 1000) / 3);
    for (const name of this.queueNames()) {
      const handler = handlers[name];
      if (handler == null) continue;
      for (let i = 0; i < concurrency; i++) {
        await this.boss.work<M[typeof name]>(
          name,
          { batchSize: 1, includeMetadata: true, pollingIntervalSeconds: this.options.pollingIntervalSeconds ?? 1 },
          async ([job]) => {
            if (job) await this.run(name, job, handler);
          },
        );
      }
    }
  }

  /**
   * Runs one job under its lease. Once the job is released (drain), pg-boss stops waiting for it:
   * its completion is then a no-op (the job is no longer active), so nothing but the new run counts.
   */
  private async run<Q extends keyof M & string>(
    name: Q,
    job: { id: string; data: M[Q]; retryCount: number },
    handler: JobHandler<M[Q]>,
  ): Promise<void> {
    const started = performance.now();
    const released = new Promise<'released'>((resolve) => this.releases.set(job.id, () => resolve('released')));
    const work = this.lease
      .hold(name, job.id, () => handler(job.data, { id: job.id, retryCount: job.retryCount }))
      .then(() => 'completed' as const);
    let outcome: 'completed' | 'failed' | 'released' = 'failed';
    try {
      outcome = await Promise.race([work, released]);
      // The abandoned run ends with the process; its failure is nobody's to handle.
      if (outcome === 'released') work.catch(() => undefined);
    } finally {
      this.releases.delete(job.id);
      this.options.onJobEnd?.(name, (performance.now() - started) / 1000, outcome);
    }
  }

  /**
   * Stops taking jobs, lets running ones finish for up to `graceMs`, then hands those still running
   * back to their queues for another worker. Returns how many were handed back.
   */
  async drain(graceMs: number): Promise<number> {
    clearInterval(this.sweep);
    await Promise.all(this.worked.map((name) => this.boss.offWork(name)));
    const deadline = Date.now() + graceMs;
    while (this.lease.heldCount > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    const released = await this.lease.releaseHeld();
    for (const id of released) this.releases.get(id)?.();
    return released.length;
  }

  /** Fails (so retries, while attempts remain) every job whose worker stopped renewing its lease. */
  private async reclaimLapsed(
    queues: (keyof M & string)[],
    givenUp: GivenUpHandlers<M>,
    takenBack: TakenBackHandler<M> | undefined,
  ): Promise<void> {
    if (queues.length === 0) return;
    const lapsed = await this.lease.claimLapsed(queues);
    for (const job of lapsed) {
      const name = job.name as keyof M & string;
      await this.boss.fail(name, job.id, { message: WORKER_LOST });
      await this.lease.release(job.id);
      const after = await this.boss.getJobById(name, job.id);
      if (after?.state === 'failed') await givenUp[name]?.(job.data as M[typeof name]);
    }
    if (lapsed.length > 0) {
      await takenBack?.(
        lapsed.map((job) => ({ name: job.name, payload: job.data }) as Parameters<TakenBackHandler<M>>[0][number]),
      );
    }
  }

  /** The payload and attempt number (0 for the first) of every job of this queue running on a live worker. */
  async running<Q extends keyof M & string>(name: Q): Promise<{ payload: M[Q]; retryCount: number }[]> {
    const jobs = await this.lease.running(name);
    return jobs.map((job) => ({ payload: job.data as M[Q], retryCount: job.retryCount }));
  }

  /** Whether a job of this queue whose payload contains `match` is waiting or running on a live worker. */
  async alive<Q extends keyof M & string>(name: Q, match: Partial<M[Q]>): Promise<boolean> {
    return this.lease.alive(name, match);
  }

  /**
   * Counts per queue and state in one query, for the health report: through `pool` when given (the one requests
   * use, so the report says the database answers exactly when they get answers), else pg-boss's own.
   */
  async state(pool?: Pick<pg.Pool, 'query'>): Promise<QueueStates> {
    const states: QueueStates = {};
    for (const name of this.queueNames()) states[name] = { queued: 0, active: 0, failed: 0 };
    const text = `SELECT name, state, count(*)::int AS count FROM pgboss.job WHERE name = ANY($1) GROUP BY name, state`;
    const values = [this.queueNames()];
    const { rows } = pool == null ? await this.boss.getDb().executeSql(text, values) : await pool.query(text, values);
    for (const row of rows as { name: string; state: string; count: number }[]) {
      const entry = states[row.name];
      if (entry == null) continue;
      if (row.state === 'created' || row.state === 'retry') entry.queued += row.count;
      else if (row.state === 'active') entry.active += row.count;
      else if (row.state === 'failed') entry.failed += row.count;
    }
    return states;
  }

  async getJob(name: keyof M & string, id: string): Promise<{ state: string; retryCount: number } | null> {
    const job = await this.boss.getJobById(name, id);
    return job == null ? null : { state: job.state, retryCount: job.retryCount };
  }

  async stop(): Promise<void> {
    clearInterval(this.sweep);
    await this.boss.stop({ graceful: true, wait: true, timeout: 10_000 });
  }
}
