import { sql } from 'drizzle-orm';
import { boolean, check, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './columns.ts';

export const accounts = pgTable(
  'accounts',
  {
    id: id(),
    /** Always stored lower-cased, so equality is case-insensitive without lower() in every query. */
    email: text().notNull().unique(),
    firstName: text().notNull().default(''),
    lastName: text().notNull().default(''),
    displayName: text(),
    avatarUrl: text(),
    affiliation: text(),
    profile: text(),
    /** The identity provider's `sub`; null until the person signs in for the first time (invited accounts). */
    subject: text().unique(),
    /** Only for the built-in identity provider; external providers keep their own credentials. */
    passwordHash: text(),
    isSuperUser: boolean().notNull().default(false),
    emailVerified: boolean().notNull().default(false),
    lastSignInAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [check('accounts_email_lower_case', sql`${t.email} = lower(${t.email})`)],
);
