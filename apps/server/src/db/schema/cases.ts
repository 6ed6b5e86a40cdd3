import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { createdAt, id, updatedAt } from './columns.ts';
import { specimenType } from './enums.ts';
import { organizations } from './organizations.ts';

/**
 * A case: one patient specimen. Case numbers are not unique, not even per group: labs reuse
 * numbering schemes and transfers may bring a duplicate, which CSV import reports as DUPLICATE_CASE_NUMBER.
 */
export const cases = pgTable(
  'cases',
  {
    id: id(),
    caseNumber: text().notNull(),
    ownerOrganizationId: uuid()
      .notNull()
      .references(() => organizations.id, { onDelete: 'restrict' }),
    /** The slide provider group; shown to super users only. */
    intendedOwnerOrganizationId: uuid().references(() => organizations.id, { onDelete: 'set null' }),
    organ: text(),
    specimenType: specimenType(),
    diagnosis: text(),
    grossFindings: text(),
    microscopicFindings: text(),
    /** Free notes ("comments" in the spec; not the comment thread). */
    comments: text(),
    tags: text()
      .array()
      .notNull()
      .default(sql`'{}'`),
    isPublic: boolean().notNull().default(false),
    createdByAccountId: uuid().references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('cases_owner_created_idx').on(t.ownerOrganizationId, t.createdAt),
    // The case list's default order (newest first, id as tie-break) for callers who see every group.
    index('cases_created_idx').on(t.createdAt, t.id),
    index('cases_case_number_idx').on(t.caseNumber),
    index('cases_intended_owner_idx').on(t.intendedOwnerOrganizationId),
    index('cases_public_idx')
      .on(t.isPublic)
      .where(sql`${t.isPublic}`),
    // Trigram indexes serve the search's like-matches ("*" wildcards) on the free-text fields.
    index('cases_case_number_trgm_idx').using('gin', t.caseNumber.op('gin_trgm_ops')),
    index('cases_diagnosis_trgm_idx').using('gin', t.diagnosis.op('gin_trgm_ops')),
    index('cases_gross_findings_trgm_idx').using('gin', t.grossFindings.op('gin_trgm_ops')),
    index('cases_microscopic_findings_trgm_idx').using('gin', t.microscopicFindings.op('gin_trgm_ops')),
    index('cases_comments_trgm_idx').using('gin', t.comments.op('gin_trgm_ops')),
    index('cases_tags_idx').using('gin', t.tags),
  ],
);
