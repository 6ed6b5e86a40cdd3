import { sql } from 'drizzle-orm';
import { check, index, pgTable, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns.ts';
import { cases } from './cases.ts';
import { grantResourceType, granteeType, groupRole } from './enums.ts';
import { organizations } from './organizations.ts';

/**
 * Extra access beyond membership: a role on one case or on all cases of an organization, given to
 * an account or to every member of another organization. granteeId points at accounts or
 * organizations depending on granteeType, so it has no foreign key; services delete a grantee's
 * grants together with the grantee.
 */
export const grants = pgTable(
  'grants',
  {
    id: id(),
    resourceType: grantResourceType().notNull(),
    caseId: uuid().references(() => cases.id, { onDelete: 'cascade' }),
    organizationId: uuid().references(() => organizations.id, { onDelete: 'cascade' }),
    grantedRole: groupRole().notNull(),
    granteeType: granteeType().notNull(),
    granteeId: uuid().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    check(
      'grants_resource_matches_type',
      sql`(${t.resourceType} = 'case' AND ${t.caseId} IS NOT NULL AND ${t.organizationId} IS NULL)
        OR (${t.resourceType} = 'organization' AND ${t.organizationId} IS NOT NULL AND ${t.caseId} IS NULL)`,
    ),
    uniqueIndex('grants_case_grantee_unique')
      .on(t.caseId, t.granteeType, t.granteeId)
      .where(sql`${t.caseId} IS NOT NULL`),
    uniqueIndex('grants_organization_grantee_unique')
      .on(t.organizationId, t.granteeType, t.granteeId)
      .where(sql`${t.organizationId} IS NOT NULL`),
    index('grants_grantee_idx').on(t.granteeType, t.granteeId),
  ],
);
