import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { createdAt, id, updatedAt } from './columns.ts';

export const contracts = pgTable(
  'contracts',
  {
    id: id(),
    name: text().notNull(),
    plan: text().notNull().default('standard'),
    startDate: date({ mode: 'string' }).notNull(),
    endDate: date({ mode: 'string' }),
    contractorName: text().notNull().default(''),
    details: text(),
    countryCode: text(),
    postalCode: text(),
    address: text(),
    tel: text(),
    emergencyContact: text(),
    billingContact: text(),
    /** How many groups the contract may hold; null means no limit. */
    maxOrganizations: integer(),
    /** Storage shared by all groups of the contract; null means no limit. */
    storageLimitGb: integer(),
    /**
     * Set when the provider has checked the contract (POST contracts/{id}/authentications): until then its
     * groups work, but the contract shows as not yet authenticated.
     */
    authenticatedAt: timestamp({ withTimezone: true }),
    authenticatedByAccountId: uuid().references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('contracts_dates_ordered', sql`${t.endDate} IS NULL OR ${t.endDate} >= ${t.startDate}`),
    check('contracts_max_organizations_positive', sql`${t.maxOrganizations} IS NULL OR ${t.maxOrganizations} >= 0`),
  ],
);

/** Accounts that own a contract: they see it on the Contracts screen and may create its groups. */
export const contractProprietors = pgTable(
  'contract_proprietors',
  {
    contractId: uuid()
      .notNull()
      .references(() => contracts.id, { onDelete: 'cascade' }),
    accountId: uuid()
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.contractId, t.accountId] }),
    index('contract_proprietors_account_idx').on(t.accountId),
  ],
);
