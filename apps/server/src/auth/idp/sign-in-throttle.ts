import { createHmac } from 'node:crypto';
import { eq, inArray, lt, sql } from 'drizzle-orm';
import ipaddr from 'ipaddr.js';
import type { Db } from '../../db/client.ts';
import { signInThrottle } from '../../db/schema/index.ts';

/** How one kind of subject is slowed: `free` failures pass, then each next attempt waits twice as long, up to `capSeconds`. */
export interface ThrottleRule {
  free: number;
  firstDelaySeconds: number;
  capSeconds: number;
  /**
   * One failure is forgotten every so many seconds (a leaky bucket), so the occasional typo of many
   * people behind one address never adds up to a wait, while steady guessing keeps its count.
   */
  leakSeconds: number;
}

const MINUTE = 60;
const HOUR = 60 * MINUTE;

/** The numbers the README's "Signing in" section states. */
export const SIGN_IN_RULES = {
  /** Everything tried from one client address (an IPv6 /64): one password sprayed over many accounts. */
  address: { free: 20, firstDelaySeconds: 1, capSeconds: MINUTE, leakSeconds: 3 * MINUTE },
  /** One account from one address: only that address's failures slow it, so a guesser elsewhere cannot. */
  accountAddress: { free: 5, firstDelaySeconds: 1, capSeconds: 5 * MINUTE, leakSeconds: 10 * MINUTE },
  /** One account from every address but those it signed in from: guessing spread over many addresses. */
  account: { free: 20, firstDelaySeconds: 1, capSeconds: MINUTE, leakSeconds: 3 * MINUTE },
} as const satisfies Record<string, ThrottleRule>;

/** An address the account signed in from skips the account-wide rule this long. */
const KNOWN_ADDRESS_SECONDS = 30 * 24 * HOUR;

/** Expired rows are deleted at most this often per process, piggybacking on attempts. */
const PRUNE_INTERVAL_MS = 10 * 60 * 1000;

/** Seconds the next attempt waits after `failures` failures (a part-forgotten one still counts) under `rule`. */
export function delaySeconds(rule: ThrottleRule, failures: number): number {
  failures = Math.ceil(failures);
  if (failures < rule.free) return 0;
  return Math.min(rule.capSeconds, rule.firstDelaySeconds * 2 ** (failures - rule.free));
}

export interface SignInThrottle {
  /**
   * Whether an attempt for this e-mail from this client address may check its password now. An
   * allowed attempt is counted as a failure at once, so parallel guesses cannot all pass through
   * one opening; `succeeded` takes it back. A refused one says how many seconds to wait.
   */
  attempt(email: string, address: string): Promise<{ retryAfterSeconds: number } | undefined>;
  /**
   * The password was wrong: the wait starts now, not when checking it began (hashing takes a while
   * under load). What leaked meanwhile is not taken off: a second or two against minutes.
   */
  failed(email: string, address: string): Promise<void>;
  /** The password was right: the account's failures from this address are forgotten and the address known. */
  succeeded(email: string, address: string): Promise<void>;
}

type Kind = keyof typeof SIGN_IN_RULES;

/**
 * The throttled subjects of one attempt. E-mails are stored hashed, keyed by the installation's secret: people type
 * passwords into the e-mail field too, and a plain hash of a short text is found again by trying candidates.
 */
function subjects(email: string, address: string, secret: string): Record<Kind, string> {
  const account = createHmac('sha256', secret).update(email.trim().toLowerCase()).digest('base64url');
  const network = clientNetwork(address);
  return {
    address: `address:${network}`,
    accountAddress: `account:${account}@${network}`,
    account: `account:${account}`,
  };
}

/** The address as counted: IPv4 (also when IPv4-mapped), or the /64 an IPv6 host picks its addresses from. */
export function clientNetwork(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const prefix = ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toString()}/64`);
  return `${prefix.toString()}/64`;
}

type Transaction = Parameters<Parameters<Db['transaction']>[0]>[0];

const seconds = (value: number) => sql`make_interval(secs => ${value})`;

export function createSignInThrottle(
  db: Db,
  options: { secret: string; onError?: (error: unknown) => void },
): SignInThrottle {
  const t = signInThrottle;
  let lastPrune = -Infinity;
  const prune = (): void => {
    if (Date.now() - lastPrune < PRUNE_INTERVAL_MS) return;
    lastPrune = Date.now();
    db.delete(t)
      .where(lt(t.expiresAt, sql`now()`))
      .then(
        () => undefined,
        (error: unknown) => options.onError?.(error),
      );
  };

  /** Locked in key order, so concurrent attempts on overlapping subjects queue instead of deadlocking. */
  const lockRows = (tx: Transaction, keys: Record<Kind, string>) =>
    tx
      .select({
        key: t.key,
        failures: t.failures,
        elapsed: sql<number | null>`extract(epoch from now() - ${t.lastFailureAt})::float8`,
        known: sql<boolean>`coalesce(${t.signedInAt} > now() - ${seconds(KNOWN_ADDRESS_SECONDS)}, false)`,
      })
      .from(t)
      .where(inArray(t.key, Object.values(keys)))
      .orderBy(t.key)
      .for('update');

  return {
    async attempt(email, address) {
      prune();
      const keys = subjects(email, address, options.secret);
      return db.transaction(async (tx) => {
        const rows = await lockRows(tx, keys);
        const byKey = new Map(rows.map((row) => [row.key, row]));
        const known = byKey.get(keys.accountAddress)?.known === true;
        let wait = 0;
        for (const kind of Object.keys(keys) as Kind[]) {
          const row = byKey.get(keys[kind]);
          const rule = SIGN_IN_RULES[kind];
          if (row?.elapsed == null || (kind === 'account' && known)) continue;
          const failures = row.failures - row.elapsed / rule.leakSeconds;
          wait = Math.max(wait, delaySeconds(rule, failures) - row.elapsed);
        }
        if (wait > 0) return { retryAfterSeconds: Math.ceil(wait) };

        for (const kind of Object.keys(keys) as Kind[]) {
          const leak = SIGN_IN_RULES[kind].leakSeconds;
          const left = sql`greatest(0, ${t.failures} - coalesce(extract(epoch from now() - ${t.lastFailureAt}) / ${leak}, 0))`;
          await tx
            .insert(t)
            .values({
              key: keys[kind],
              failures: 1,
              lastFailureAt: sql`now()`,
              expiresAt: sql`now() + ${seconds(leak)}`,
            })
            .onConflictDoUpdate({
              target: t.key,
              set: {
                failures: sql`${left} + 1`,
                lastFailureAt: sql`now()`,
                // Until every failure has leaked away; an address the account signed in from is remembered longer.
                expiresAt: sql`greatest(${t.expiresAt}, now() + make_interval(secs => (${left} + 1) * ${leak}))`,
              },
            });
        }
        return undefined;
      });
    },

    async failed(email, address) {
      const keys = subjects(email, address, options.secret);
      await db.transaction(async (tx) => {
        await lockRows(tx, keys);
        await tx
          .update(t)
          .set({ lastFailureAt: sql`now()` })
          .where(inArray(t.key, Object.values(keys)));
      });
    },

    async succeeded(email, address) {
      const keys = subjects(email, address, options.secret);
      await db.transaction(async (tx) => {
        await lockRows(tx, keys);
        await tx
          .update(t)
          .set({
            failures: 0,
            lastFailureAt: null,
            signedInAt: sql`now()`,
            expiresAt: sql`now() + ${seconds(KNOWN_ADDRESS_SECONDS)}`,
          })
          .where(eq(t.key, keys.accountAddress));
        // Only this attempt is taken back: the address's and the account's other failures still count.
        await tx
          .update(t)
          .set({ failures: sql`greatest(${t.failures} - 1, 0)` })
          .where(inArray(t.key, [keys.address, keys.account]));
      });
    },
  };
}
