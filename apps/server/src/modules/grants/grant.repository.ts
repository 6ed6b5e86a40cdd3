import { and, asc, eq, sql } from 'drizzle-orm';
import type { GranteeType, GroupRole } from '@pathology/contract';
import type { Db } from '../../db/client.ts';
import { accounts, grants, organizations } from '../../db/schema/index.ts';
import { accountName } from '../accounts/account-name.ts';

const UNIQUE_VIOLATION = '23505';

function isUniqueViolation(error: unknown): boolean {
  const cause = error instanceof Error && error.cause != null ? error.cause : error;
  return typeof cause === 'object' && cause != null && 'code' in cause && cause.code === UNIQUE_VIOLATION;
}

const grantColumns = {
  id: grants.id,
  caseId: grants.caseId,
  organizationId: grants.organizationId,
  grantedRole: grants.grantedRole,
  granteeType: grants.granteeType,
  granteeId: grants.granteeId,
  granteeName: sql<string | null>`coalesce(${accountName}, ${organizations.name})`,
  granteeEmail: accounts.email,
  createdAt: grants.createdAt,
};

export function createGrantRepository(db: Db) {
  /** Grants with their grantee's name: granteeId points at an account or a group, by granteeType. */
  function selectGrants() {
    return db
      .select(grantColumns)
      .from(grants)
      .leftJoin(accounts, and(eq(grants.granteeType, 'account'), eq(accounts.id, grants.granteeId)))
      .leftJoin(organizations, and(eq(grants.granteeType, 'organization'), eq(organizations.id, grants.granteeId)));
  }

  return {
    /** The grants on one case, oldest first. */
    async listForCase(caseId: string) {
      return selectGrants().where(eq(grants.caseId, caseId)).orderBy(asc(grants.createdAt), asc(grants.id));
    },

    /** The grants on a whole group, oldest first. */
    async listForOrganization(organizationId: string) {
      return selectGrants()
        .where(and(eq(grants.resourceType, 'organization'), eq(grants.organizationId, organizationId)))
        .orderBy(asc(grants.createdAt), asc(grants.id));
    },

    async find(grantId: string) {
      const [row] = await selectGrants().where(eq(grants.id, grantId));
      return row;
    },

    /** An account by id or by e-mail (stored lower-cased). */
    async findAccountId(by: { id: string } | { email: string }): Promise<string | undefined> {
      const [row] = await db
        .select({ id: accounts.id })
        .from(accounts)
        .where('id' in by ? eq(accounts.id, by.id) : eq(accounts.email, by.email.toLowerCase()));
      return row?.id;
    },

    /** Inserts a case grant; null when the grantee already has one on the case. */
    async createForCase(values: {
      caseId: string;
      grantedRole: GroupRole;
      granteeType: GranteeType;
      granteeId: string;
    }): Promise<string | null> {
      try {
        const [row] = await db
          .insert(grants)
          .values({ ...values, resourceType: 'case' })
          .returning({ id: grants.id });
        return row!.id;
      } catch (error) {
        if (isUniqueViolation(error)) return null;
        throw error;
      }
    },

    async updateRole(grantId: string, grantedRole: GroupRole): Promise<void> {
      await db.update(grants).set({ grantedRole }).where(eq(grants.id, grantId));
    },

    async delete(grantId: string): Promise<void> {
      await db.delete(grants).where(eq(grants.id, grantId));
    },
  };
}

export type GrantRepository = ReturnType<typeof createGrantRepository>;
export type GrantRow = NonNullable<Awaited<ReturnType<GrantRepository['find']>>>;
