import { and, eq, gt, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Db } from '../../db/client.ts';
import { oidcPayloads, type JsonObject } from '../../db/schema/index.ts';

/** Expired rows are deleted at most this often per process, piggybacking on writes. */
const CLEANUP_INTERVAL_MS = 10 * 60 * 1000;

export interface OidcAdapterOptions {
  onError?: (error: unknown) => void;
}

/**
 * oidc-provider's storage (sessions, interactions, codes, tokens, grants) in the oidc_payloads
 * table, so a sign-in started on one api instance can finish on another. One adapter per model
 * name (`kind`); expiry is enforced on read, and old rows are swept now and then.
 */
export function createOidcAdapterFactory(db: Db, options: OidcAdapterOptions = {}): (kind: string) => Adapter {
  let lastCleanup = Date.now();
  const sweep = (): void => {
    if (Date.now() - lastCleanup < CLEANUP_INTERVAL_MS) return;
    lastCleanup = Date.now();
    db.delete(oidcPayloads)
      .where(lt(oidcPayloads.expiresAt, sql`now()`))
      .then(
        () => undefined,
        (error: unknown) => options.onError?.(error),
      );
  };
  return (kind) => new PostgresAdapter(db, kind, sweep);
}

class PostgresAdapter implements Adapter {
  constructor(
    private readonly db: Db,
    private readonly kind: string,
    private readonly sweep: () => void,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn: number | undefined): Promise<void> {
    const columns = {
      payload: payload as JsonObject,
      grantId: stringOrNull(payload.grantId),
      userCode: stringOrNull(payload.userCode),
      uid: stringOrNull(payload.uid),
      expiresAt: expiresIn == null ? null : new Date(Date.now() + expiresIn * 1000),
    };
    await this.db
      .insert(oidcPayloads)
      .values({ kind: this.kind, id, ...columns })
      .onConflictDoUpdate({ target: [oidcPayloads.kind, oidcPayloads.id], set: columns });
    this.sweep();
  }

  find(id: string): Promise<AdapterPayload | undefined> {
    return this.findWhere(eq(oidcPayloads.id, id));
  }

  findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.findWhere(eq(oidcPayloads.uid, uid));
  }

  findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.findWhere(eq(oidcPayloads.userCode, userCode));
  }

  async consume(id: string): Promise<void> {
    await this.db
      .update(oidcPayloads)
      .set({ consumedAt: sql`now()` })
      .where(and(eq(oidcPayloads.kind, this.kind), eq(oidcPayloads.id, id)));
  }

  async destroy(id: string): Promise<void> {
    await this.db.delete(oidcPayloads).where(and(eq(oidcPayloads.kind, this.kind), eq(oidcPayloads.id, id)));
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.db.delete(oidcPayloads).where(and(eq(oidcPayloads.kind, this.kind), eq(oidcPayloads.grantId, grantId)));
  }

  private async findWhere(condition: SQL): Promise<AdapterPayload | undefined> {
    const [row] = await this.db
      .select({ payload: oidcPayloads.payload, consumedAt: oidcPayloads.consumedAt })
      .from(oidcPayloads)
      .where(
        and(
          eq(oidcPayloads.kind, this.kind),
          condition,
          or(isNull(oidcPayloads.expiresAt), gt(oidcPayloads.expiresAt, sql`now()`)),
        ),
      )
      .limit(1);
    if (row == null) return undefined;
    // oidc-provider treats a truthy `consumed` (epoch seconds) as "already used": codes are one-shot.
    return row.consumedAt == null
      ? row.payload
      : { ...row.payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) };
  }
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}
