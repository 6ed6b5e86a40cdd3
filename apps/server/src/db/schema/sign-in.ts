import { doublePrecision, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Failed sign-ins of the built-in provider, one row per throttled subject (a client address, an
 * account, an account from one address), so every api process counts the same failures. A row of
 * an account and address also remembers that the account signed in from there. Rows whose
 * `expires_at` has passed hold nothing left to count and are deleted now and then.
 */
export const signInThrottle = pgTable(
  'sign_in_throttle',
  {
    key: text().primaryKey(),
    /** Failures not yet forgotten; fractional, as they leak away with time. */
    failures: doublePrecision().notNull().default(0),
    lastFailureAt: timestamp({ withTimezone: true }),
    signedInAt: timestamp({ withTimezone: true }),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index('sign_in_throttle_expires_idx').on(t.expiresAt)],
);
