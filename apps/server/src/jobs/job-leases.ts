/** How a running job shows it is alive. */
export interface LeasePolicy {
  /** How often a worker renews the lease of each job it runs. */
  heartbeatSeconds: number;
  /** A lease not renewed for this long belongs to a dead worker. */
  lapseSeconds: number;
}

/** Renewed every 10 s; a job silent for 45 s is taken back, so a dead worker's job restarts well within 2 minutes. */
export const DEFAULT_LEASE: LeasePolicy = { heartbeatSeconds: 10, lapseSeconds: 45 };

interface Sql {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

export interface LapsedJob {
  id: string;
  name: string;
  data: unknown;
}

/**
 * Leases of running jobs in `job_leases`, next to pg-boss's own tables. pg-boss 10 only notices a
 * dead worker when a job outlives its whole expiry (for a conversion, its time limit); the lease
 * tells within `lapseSeconds`.
 */
export class JobLeases {
  constructor(
    private readonly db: Sql,
    readonly policy: LeasePolicy,
  ) {}

  /** Jobs this process runs now, each with what stops renewing its lease. */
  private readonly held = new Map<string, { stopRenewing: () => void }>();
  /** Jobs handed back to the queue by `releaseHeld`; their old run must not touch the lease again. */
  private readonly released = new Set<string>();

  /** Runs `work` while renewing the job's lease; the lease goes with the job's end. */
  async hold<T>(queue: string, jobId: string, work: () => Promise<T>): Promise<T> {
    await this.db.executeSql(
      `INSERT INTO job_leases (job_id, queue) VALUES ($1, $2)
       ON CONFLICT (job_id) DO UPDATE SET renewed_at = now()`,
      [jobId, queue],
    );
    const renew = setInterval(() => {
      // A missed renewal (database briefly away) is made up by the next one.
      this.db.executeSql(`UPDATE job_leases SET renewed_at = now() WHERE job_id = $1`, [jobId]).catch(() => undefined);
    }, this.policy.heartbeatSeconds * 1000);
    this.held.set(jobId, { stopRenewing: () => clearInterval(renew) });
    try {
      return await work();
    } finally {
      clearInterval(renew);
      this.held.delete(jobId);
      // A released job may already run elsewhere under the same id and lease row.
      if (!this.released.has(jobId))
        await this.db.executeSql(`DELETE FROM job_leases WHERE job_id = $1`, [jobId]).catch(() => undefined);
    }
  }

  /** How many jobs this process runs now. */
  get heldCount(): number {
    return this.held.size;
  }

  /**
   * Hands every job this process still runs back to its queue as if never started (the attempt is
   * not counted: pg-boss adds one only to jobs started before), for another worker to take at once.
   * Returns the released job ids.
   */
  async releaseHeld(): Promise<string[]> {
    const ids = [...this.held.keys()];
    if (ids.length === 0) return [];
    for (const id of ids) {
      this.released.add(id);
      this.held.get(id)?.stopRenewing();
    }
    await this.db.executeSql(
      `UPDATE pgboss.job SET state = 'created', started_on = NULL, start_after = now()
       WHERE id = ANY($1::uuid[]) AND state = 'active'`,
      [ids],
    );
    await this.db.executeSql(`DELETE FROM job_leases WHERE job_id = ANY($1::uuid[])`, [ids]);
    return ids;
  }

  /**
   * Active jobs of these queues whose lease lapsed (or that were never leased although they started
   * long enough ago), each claimed by this caller alone: of several workers sweeping at once, one
   * takes each job.
   */
  async claimLapsed(queues: string[]): Promise<LapsedJob[]> {
    const { rows } = await this.db.executeSql(
      `SELECT j.id, j.name, j.data FROM pgboss.job j LEFT JOIN job_leases l ON l.job_id = j.id
       WHERE j.name = ANY($1) AND j.state = 'active'
         AND COALESCE(l.renewed_at, j.started_on) < now() - make_interval(secs => $2)`,
      [queues, this.policy.lapseSeconds],
    );
    const claimed: LapsedJob[] = [];
    for (const job of rows as LapsedJob[]) {
      const { rows: won } = await this.db.executeSql(
        `INSERT INTO job_leases (job_id, queue) VALUES ($1, $2)
         ON CONFLICT (job_id) DO UPDATE SET renewed_at = now()
           WHERE job_leases.renewed_at < now() - make_interval(secs => $3)
         RETURNING job_id`,
        [job.id, job.name, this.policy.lapseSeconds],
      );
      if (won.length > 0) claimed.push(job);
    }
    return claimed;
  }

  /** Forgets the lease of a job taken back from a dead worker. */
  async release(jobId: string): Promise<void> {
    await this.db.executeSql(`DELETE FROM job_leases WHERE job_id = $1`, [jobId]);
  }

  /** The payload and attempt (pg-boss's retry count) of every job of `queue` running on a live worker. */
  async running(queue: string): Promise<{ data: unknown; retryCount: number }[]> {
    const { rows } = await this.db.executeSql(
      `SELECT j.data, j.retry_count AS "retryCount" FROM pgboss.job j LEFT JOIN job_leases l ON l.job_id = j.id
       WHERE j.name = $1 AND j.state = 'active'
         AND COALESCE(l.renewed_at, j.started_on) >= now() - make_interval(secs => $2)`,
      [queue, this.policy.lapseSeconds],
    );
    return rows as { data: unknown; retryCount: number }[];
  }

  /** Whether a job of `queue` whose payload contains `match` waits to run or runs on a live worker. */
  async alive(queue: string, match: object): Promise<boolean> {
    const { rows } = await this.db.executeSql(
      `SELECT 1 FROM pgboss.job j LEFT JOIN job_leases l ON l.job_id = j.id
       WHERE j.name = $1 AND j.data @> $2::jsonb
         AND (j.state IN ('created', 'retry')
              OR (j.state = 'active' AND COALESCE(l.renewed_at, j.started_on) >= now() - make_interval(secs => $3)))
       LIMIT 1`,
      [queue, JSON.stringify(match), this.policy.lapseSeconds],
    );
    return rows.length > 0;
  }
}
