import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { createdAt, id, updatedAt } from './columns.ts';
import { contracts } from './contracts.ts';
import { groupRole } from './enums.ts';

/** A group: the unit that owns cases and has members. */
export const organizations = pgTable(
  'organizations',
  {
    id: id(),
    name: text().notNull(),
    description: text(),
    country: text(),
    phone: text(),
    postalCode: text(),
    address: text(),
    contact: text(),
    contractId: uuid()
      .notNull()
      .references(() => contracts.id, { onDelete: 'restrict' }),
    /** Null means no limit. */
    storageLimitGb: integer(),
    predictionEnabled: boolean().notNull().default(false),
    downloadDrawingsEnabled: boolean().notNull().default(false),
    /** The provider's own group: its members are the provider's employees. */
    isProvider: boolean().notNull().default(false),
    drawingCreationDenied: boolean().notNull().default(false),
    aiAgreementSkipped: boolean().notNull().default(false),
    // Running totals kept by the services that add and remove blobs, so quota checks need no scan.
    usedOriginalBytes: bigint({ mode: 'number' }).notNull().default(0),
    usedPyramidalBytes: bigint({ mode: 'number' }).notNull().default(0),
    usedAttachmentBytes: bigint({ mode: 'number' }).notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('organizations_contract_idx').on(t.contractId),
    index('organizations_name_idx').on(t.name),
    check('organizations_storage_limit_positive', sql`${t.storageLimitGb} IS NULL OR ${t.storageLimitGb} >= 0`),
  ],
);

/** Members of `partnerOrganizationId` may view and comment on every case of `organizationId`. */
export const organizationPartners = pgTable(
  'organization_partners',
  {
    organizationId: uuid()
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    partnerOrganizationId: uuid()
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.partnerOrganizationId] }),
    index('organization_partners_partner_idx').on(t.partnerOrganizationId),
    check('organization_partners_not_self', sql`${t.organizationId} <> ${t.partnerOrganizationId}`),
  ],
);

export const memberships = pgTable(
  'memberships',
  {
    id: id(),
    organizationId: uuid()
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    accountId: uuid()
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    role: groupRole().notNull().default('member'),
    /** True until the person accepts the invitation's link; until then the row grants nothing (accepted-membership.ts). */
    invited: boolean().notNull().default(false),
    /** The team within the group (e.g. "Cytology"), set by its administrators; null for none. */
    team: text(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('memberships_organization_account_unique').on(t.organizationId, t.accountId),
    index('memberships_account_idx').on(t.accountId),
  ],
);

/** An invitation to a group (organizationId) or to own a contract (contractId). */
export const invitations = pgTable(
  'invitations',
  {
    id: id(),
    organizationId: uuid().references(() => organizations.id, { onDelete: 'cascade' }),
    contractId: uuid().references(() => contracts.id, { onDelete: 'cascade' }),
    email: text().notNull(),
    firstName: text().notNull().default(''),
    lastName: text().notNull().default(''),
    roles: groupRole()
      .array()
      .notNull()
      .default(sql`'{}'`),
    /** Random, single use; the link in the invitation mail carries it. */
    token: text().notNull().unique(),
    invitedByAccountId: uuid().references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    /** Refreshed when the invitation is resent. */
    sentAt: timestamp({ withTimezone: true }).defaultNow().notNull(),
    expiresAt: timestamp({ withTimezone: true }),
    acceptedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('invitations_organization_idx').on(t.organizationId),
    index('invitations_contract_idx').on(t.contractId),
    index('invitations_email_idx').on(t.email),
    check('invitations_target', sql`num_nonnulls(${t.organizationId}, ${t.contractId}) = 1`),
  ],
);
