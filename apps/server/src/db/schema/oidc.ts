import { index, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import type { JsonObject } from './columns.ts';

/**
 * Storage for the built-in OpenID provider (oidc-provider adapter: sessions, codes, tokens, grants),
 * so any api instance can finish a sign-in another one started. `kind` is the adapter's model name.
 */
export const oidcPayloads = pgTable(
  'oidc_payloads',
  {
    kind: text().notNull(),
    id: text().notNull(),
    payload: jsonb().$type<JsonObject>().notNull(),
    grantId: text(),
    userCode: text(),
    uid: text(),
    expiresAt: timestamp({ withTimezone: true }),
    consumedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.kind, t.id] }),
    index('oidc_payloads_grant_idx').on(t.grantId),
    index('oidc_payloads_uid_idx').on(t.uid),
    index('oidc_payloads_user_code_idx').on(t.userCode),
    index('oidc_payloads_expires_idx').on(t.expiresAt),
  ],
);
