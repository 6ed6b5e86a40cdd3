import { setTimeout as sleep } from 'node:timers/promises';
import type { Lock, Locker, RequestRelease } from '@tus/server';
import type pg from 'pg';

/** How long a request waits for an upload another request is writing before it is refused with 423. */
export const UPLOAD_LOCK_WAIT_MS = 3_000;
const RETRY_MS = 100;

/** Thrown when the upload stays locked: tus answers with `status_code` and `body`. */
export class UploadLockedError extends Error {
  readonly status_code = 423;
  constructor(readonly body: string) {
    super(body);
  }
}

interface Held {
  requestRelease: RequestRelease;
  released: Promise<void>;
  release: () => void;
}

/**
 * tus's lock on one upload across every API process on the database: a PostgreSQL session advisory lock, taken
 * on one connection this process keeps for its locks (a process that dies loses its session, so its locks go
 * with it). A session holds its own advisory locks re-entrantly, so requests of this process are kept apart in
 * memory; a newer request of this process asks the older one to stop (tus then ends its PATCH at the bytes
 * written, as its own in-memory locker does). A request on another process waits up to `waitMs`, then is
 * refused with 423 and retries.
 */
export class PgUploadLocker implements Locker {
  readonly #pool: pg.Pool;
  readonly #held = new Map<string, Held>();
  readonly #waitMs: number;
  readonly #lockedBody: string;
  #session: Promise<pg.PoolClient> | undefined;

  constructor(pool: pg.Pool, options: { lockedBody: string; waitMs?: number }) {
    this.#pool = pool;
    this.#lockedBody = options.lockedBody;
    this.#waitMs = options.waitMs ?? UPLOAD_LOCK_WAIT_MS;
  }

  newLock(id: string): Lock {
    let mine: Held | undefined;
    return {
      lock: async (signal, requestRelease) => {
        mine = await this.#acquire(id, signal, requestRelease);
      },
      unlock: async () => {
        if (mine == null) return;
        this.#held.delete(id);
        mine.release();
        await this.#query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', id).catch(() => undefined);
      },
    };
  }

  /** Returns the connection's locks to PostgreSQL. */
  async close(): Promise<void> {
    const session = await this.#session?.catch(() => undefined);
    this.#session = undefined;
    session?.release(true);
  }

  async #acquire(id: string, signal: AbortSignal, requestRelease: RequestRelease): Promise<Held> {
    const deadline = Date.now() + this.#waitMs;
    for (;;) {
      if (signal.aborted) throw signal.reason;
      const other = this.#held.get(id);
      if (other != null) {
        await other.requestRelease();
        await Promise.race([other.released, sleep(Math.max(0, deadline - Date.now()))]);
      } else {
        let release = () => {};
        const released = new Promise<void>((resolve) => (release = resolve));
        const held: Held = { requestRelease, released, release };
        // Claimed before the round trip, so two requests of this process never both ask PostgreSQL.
        this.#held.set(id, held);
        const taken = await this.#query('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS taken', id)
          .then((result) => result.rows[0]?.taken === true)
          .catch((error: unknown) => {
            this.#held.delete(id);
            release();
            throw error;
          });
        if (taken) return held;
        this.#held.delete(id);
        release();
        if (Date.now() >= deadline) throw new UploadLockedError(this.#lockedBody);
        await sleep(RETRY_MS);
      }
      if (Date.now() >= deadline && this.#held.has(id)) throw new UploadLockedError(this.#lockedBody);
    }
  }

  async #query(text: string, id: string): Promise<pg.QueryResult<{ taken?: boolean }>> {
    this.#session ??= this.#connect();
    const session = await this.#session;
    return session.query(text, [`tus-upload:${id}`]);
  }

  async #connect(): Promise<pg.PoolClient> {
    const session = await this.#pool.connect().catch((error: unknown) => {
      this.#session = undefined;
      throw error;
    });
    // A dropped connection took its locks with it; the next lock opens a new one.
    session.once('error', () => {
      this.#session = undefined;
      session.release(true);
    });
    return session;
  }
}
