import PgBoss from 'pg-boss';

/** Retry, expiry and concurrency of one queue. */
export interface QueuePolicy {
  retryLimit: number;
  retryDelaySeconds: number;
  /** A job active longer than this is treated as crashed and retried (its worker was killed). */
  expireInSeconds: number;
}

export type JobHandler<P> = (payload: P, job: { id: string; retryCount: number }) => Promise<void>;
export type JobHandlers<M> = { [Q in keyof M & string]: JobHandler<M[Q]> };
export type QueueStates = Record<string, { queued: number; active: number; failed: number }>;

interface JobQueueOptions<M> {
  connectionString: string;
  policies: { [Q in keyof M & string]: QueuePolicy };
  /** How often expired (crashed) jobs are looked for; pg-boss's default is minutes, tests want seconds. */
  maintenanceIntervalSeconds?: number;
  pollingIntervalSeconds?: number;
  onError?: (error: Error) => void;
}

/**
 * pg-boss behind a typed facade: one map M from queue name to payload type, so a send with
 * the wrong payload, or a handler for a queue that does not exist, does not compile.
 */
export class JobQueue<M extends { [Q in keyof M]: object }> {
  private readonly boss: PgBoss;

  constructor(private readonly options: JobQueueOptions<M>) {
    this.boss = new PgBoss({
      connectionString: options.connectionString,
      max: 4,
      maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 30,
    });
    this.boss.on('error', (error) => options.onError?.(error));
  }

  private queueNames(): (keyof M & string)[] {
    return Object.keys(this.options.policies) as (keyof M & string)[];
  }

  /** Installs pg-boss's schema (first start) and creates every queue with its retry policy. */
  async start(): Promise<void> {
    await this.boss.start();
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
  }

  async send<Q extends keyof M & string>(name: Q, payload: M[Q]): Promise<string> {
    const id = await this.boss.send(name, payload);
    if (id == null) throw new Error(`Job not queued: ${name}`);
    return id;
  }

  /** Runs handlers for the given queues; each job is attempted alone so one failure retries only itself. */
  async work(handlers: Partial<JobHandlers<M>>, concurrency: number): Promise<void> {
    for (const name of this.queueNames()) {
      const handler = handlers[name];
      if (handler == null) continue;
      for (let i = 0; i < concurrency; i++) {
        await this.boss.work<M[typeof name]>(
          name,
          { batchSize: 1, includeMetadata: true, pollingIntervalSeconds: this.options.pollingIntervalSeconds ?? 1 },
          async ([job]) => {
            if (job) await handler(job.data, { id: job.id, retryCount: job.retryCount });
          },
        );
      }
    }
  }

  /** Counts per queue and state in one query, for the health report. */
  async state(): Promise<QueueStates> {
    const states: QueueStates = {};
    for (const name of this.queueNames()) states[name] = { queued: 0, active: 0, failed: 0 };
    const { rows } = await this.boss
      .getDb()
      .executeSql(
        `SELECT name, state, count(*)::int AS count FROM pgboss.job WHERE name = ANY($1) GROUP BY name, state`,
        [this.queueNames()],
      );
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
    await this.boss.stop({ graceful: true, wait: true, timeout: 10_000 });
  }
}
